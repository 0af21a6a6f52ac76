import { describe, expect, it } from 'vitest';
import { MAX_SHELL_NESTING_DEPTH } from './shell-issue.js';
import { tokenizeShell } from './shell-tokenizer.js';
import type { ShellTokenization } from './shell-tokenizer.js';

/** Tokens as compact strings: words by value, operators and redirections in brackets. */
function shape(tokenization: ShellTokenization): string[] {
  return tokenization.tokens.map((token) => (token.type === 'word' ? token.value : `[${token.operator}]`));
}

function lex(source: string): string[] {
  return shape(tokenizeShell(source));
}

function issueKinds(source: string): string[] {
  return tokenizeShell(source).issues.map((issue) => issue.kind);
}

describe('tokenizeShell: words and quote removal', () => {
  it('splits on blanks and tabs', () => {
    expect(lex('git  log\t--oneline')).toEqual(['git', 'log', '--oneline']);
  });

  it('removes single quotes and keeps their content literally', () => {
    expect(lex("echo 'a  b; $(x) `y` \\n'")).toEqual(['echo', 'a  b; $(x) `y` \\n']);
  });

  it('removes double quotes and applies only their escapes', () => {
    expect(lex('echo "a \\" \\$ \\\\ \\n"')).toEqual(['echo', 'a " $ \\ \\n']);
  });

  it('joins adjacent quoted and unquoted parts into one word', () => {
    expect(lex(`r''m "-"rf a'b'"c"d`)).toEqual(['rm', '-rf', 'abcd']);
  });

  it('treats a backslash outside quotes as escaping the next character', () => {
    expect(lex('\\rm a\\ b \\;')).toEqual(['rm', 'a b', ';']);
  });

  it('marks a word quoted when any part was quoted or escaped', () => {
    const words = tokenizeShell(`if 'if' \\if i"f"`).tokens.map((token) => (token.type === 'word' ? token.quoted : null));
    expect(words).toEqual([false, true, true, true]);
  });

  it('decodes ANSI-C quotes', () => {
    expect(lex("echo $'a\\tb\\n\\x41\\101\\u00e9\\'q'")).toEqual(['echo', "a\tb\nAAé'q"]);
  });

  it('treats $ before a non-name character as literal', () => {
    expect(lex('echo $ a$ "$"')).toEqual(['echo', '$', 'a$', '$']);
    expect(issueKinds('echo $ a$ "$"')).toEqual([]);
  });

  it('removes line continuations between and inside words', () => {
    expect(lex('git log \\\n--oneline ec\\\nho "a\\\nb"')).toEqual(['git', 'log', '--oneline', 'echo', 'ab']);
  });

  it('skips comments only at the start of a word', () => {
    expect(lex('echo a#b # rm -rf /\nls')).toEqual(['echo', 'a#b', '[\n]', 'ls']);
  });
});

describe('tokenizeShell: operators and redirections', () => {
  it('recognises every list operator, longest first', () => {
    expect(lex('a;b&c&&d||e|f|&g')).toEqual(['a', '[;]', 'b', '[&]', 'c', '[&&]', 'd', '[||]', 'e', '[|]', 'f', '[|&]', 'g']);
  });

  it('treats newline and carriage return as separators', () => {
    expect(lex('a\nb\rc')).toEqual(['a', '[\n]', 'b', '[\r]', 'c']);
  });

  it('recognises redirections, including fd and &> forms', () => {
    expect(lex('a >x 2>>y &>z <w 1>&2 <>v')).toEqual(['a', '[>]', 'x', '2', '[>>]', 'y', '[&>]', 'z', '[<]', 'w', '1', '[>&]', '2', '[<>]', 'v']);
    expect(issueKinds('a 2>/dev/null')).toEqual(['redirection']);
  });

  it('skips a here-document body and keeps lexing after its delimiter', () => {
    expect(lex("cat <<'EOF'\nrm -rf /\nEOF\nls")).toEqual(['cat', '[<<]', 'EOF', '[\n]', 'ls']);
  });

  it('honours <<- tab stripping for the delimiter line', () => {
    expect(lex('cat <<-END\n\tbody\n\tEND\nls')).toEqual(['cat', '[<<-]', 'END', '[\n]', 'ls']);
  });

  it('records substitutions in an unquoted here-document body but not in a quoted one', () => {
    expect(tokenizeShell('cat <<EOF\n$(rm -rf /)\nEOF').substitutions.map((sub) => sub.source)).toEqual(['$(rm -rf /)']);
    expect(tokenizeShell("cat <<'EOF'\n$(rm -rf /)\nEOF").substitutions).toEqual([]);
  });
});

describe('tokenizeShell: substitutions and expansions', () => {
  it('keeps a $( ) as one word part and lexes its body', () => {
    const result = tokenizeShell('echo a$(rm -rf "/)")b');
    expect(shape(result)).toEqual(['echo', 'a$(rm -rf "/)")b']);
    expect(result.substitutions.map((sub) => [sub.kind, shape(sub.body)])).toEqual([['command', ['rm', '-rf', '/)']]]);
  });

  it('finds $( ) inside double quotes', () => {
    expect(tokenizeShell('echo "x $(id) y"').substitutions.map((sub) => sub.source)).toEqual(['$(id)']);
  });

  it('de-escapes backtick bodies before lexing them', () => {
    const result = tokenizeShell('echo `echo \\`rm x\\``');
    const outer = result.substitutions[0];
    expect(outer?.kind).toBe('backtick');
    expect(outer && shape(outer.body)).toEqual(['echo', '`rm x`']);
    expect(outer?.body.substitutions.map((sub) => shape(sub.body))).toEqual([['rm', 'x']]);
  });

  it('records process substitution bodies', () => {
    expect(tokenizeShell('diff <(ls a) >(rm b)').substitutions.map((sub) => [sub.kind, shape(sub.body)])).toEqual([
      ['process', ['ls', 'a']],
      ['process', ['rm', 'b']],
    ]);
  });

  it('finds substitutions inside ${...} and $(( ))', () => {
    const sources = tokenizeShell('echo ${x:-$(rm a)} $((1 + $(rm b)))').substitutions.map((sub) => sub.source);
    expect(sources).toEqual(['$(rm a)', '$(rm b)']);
    expect(issueKinds('echo ${x} $((1))')).toEqual(['parameter_expansion', 'arithmetic_expansion']);
  });

  it('reports each expansion kind', () => {
    expect(issueKinds('echo $HOME $1 $@ "$USER"')).toEqual(Array(4).fill('parameter_expansion'));
    expect(issueKinds('echo *.ts a? [ab]c {a,b} {1..3} ~/x')).toEqual([
      'pathname_expansion',
      'pathname_expansion',
      'pathname_expansion',
      'brace_expansion',
      'brace_expansion',
      'tilde_expansion',
    ]);
  });

  it('does not mistake literal braces and brackets for expansions', () => {
    expect(issueKinds('find . -exec echo {} ; git log @{u}..HEAD HEAD~1 [ x ]')).toEqual([]);
  });
});

describe('tokenizeShell: malformed input', () => {
  it.each([
    ["echo 'abc", 'unterminated single quote'],
    ['echo "abc', 'unterminated double quote'],
    ['echo abc\\', 'trailing backslash'],
    ['echo $(ls', 'unterminated command substitution'],
    ['echo `ls', 'unterminated backtick substitution'],
    ['echo ${x', 'unterminated `${`'],
    ["echo $'abc", "unterminated ANSI-C quote `$'`"],
  ])('reports %j as a parse error', (source, detail) => {
    expect(tokenizeShell(source).issues).toContainEqual({ kind: 'parse_error', detail });
  });

  it('stops at the nesting limit instead of recursing without bound', () => {
    const depth = MAX_SHELL_NESTING_DEPTH + 5;
    const source = `${'$('.repeat(depth)}rm x${')'.repeat(depth)}`;
    expect(issueKinds(source)).toContain('nesting_limit');
  });

  it('lexes a long command in one pass', () => {
    const source = Array.from({ length: 5000 }, (_, index) => `echo ${index}`).join(' && ');
    expect(tokenizeShell(source).tokens).toHaveLength(5000 * 3 - 1);
  });
});
