import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from './shell-command-parser.js';

/** Sub-commands as strings; nested ones prefixed with `>`. */
function commands(source: string): string[] {
  return analyzeShellCommand(source).commands.map((sub) => `${sub.nested ? '>' : ''}${sub.words.join(' ')}`);
}

function kinds(source: string): string[] {
  return [...new Set(analyzeShellCommand(source).issues.map((issue) => issue.kind))];
}

describe('analyzeShellCommand: provably simple commands', () => {
  it.each([
    'git status',
    'git log --oneline -5 && echo done',
    "echo 'a; b' | ls -la",
    'ls & git status; echo\nls',
    'echo hi # trailing comment',
    "echo $'\\t'",
    'echo "plain text"',
    '',
  ])('%j is simple', (source) => {
    const analysis = analyzeShellCommand(source);
    expect(analysis.issues).toEqual([]);
    expect(analysis.simple).toBe(true);
  });

  it('splits on every separator and keeps argv after quote removal', () => {
    expect(commands('a 1; b "2 3" && c\'4\' || d | e |& f & g\nh\ri')).toEqual(['a 1', 'b 2 3', 'c4', 'd', 'e', 'f', 'g', 'h', 'i']);
  });

  it('keeps a quoted argument with spaces as one word', () => {
    expect(analyzeShellCommand('git commit -m "fix: a; b"').commands[0]?.words).toEqual(['git', 'commit', '-m', 'fix: a; b']);
  });
});

describe('analyzeShellCommand: constructs that are not provably simple', () => {
  it.each([
    ['echo $(id)', 'command_substitution'],
    ['echo "`id`"', 'command_substitution'],
    ['cat <(ls)', 'process_substitution'],
    ['echo $HOME', 'parameter_expansion'],
    ['echo $"hello"', 'parameter_expansion'],
    ['echo $((1+1))', 'arithmetic_expansion'],
    ['echo $[1+1]', 'arithmetic_expansion'],
    ['ls *.ts', 'pathname_expansion'],
    ['echo {a,b}', 'brace_expansion'],
    ['ls ~', 'tilde_expansion'],
    ['echo x > f', 'redirection'],
    ['cat <<EOF\nx\nEOF', 'redirection'],
    ['FOO=1 git log', 'env_assignment'],
    ['(ls)', 'subshell'],
    ['f() { ls; }', 'subshell'],
    ['{ ls; }', 'group'],
    ['if ls; then ls; fi', 'control_structure'],
    ['while ls; do ls; done', 'control_structure'],
    ['case x in a) ls;; esac', 'control_structure'],
    ['[[ -f x ]]', 'control_structure'],
    ['! ls', 'control_structure'],
    ['bash -c ls', 'wrapper_command'],
    ['sudo ls', 'wrapper_command'],
    ["echo 'x", 'parse_error'],
    ['ls &&', 'parse_error'],
    ['&& ls', 'parse_error'],
    ['ls )', 'parse_error'],
    ['echo >', 'parse_error'],
    ['echo a\u200Bb', 'unusual_character'],
    ['echo \u2066x\u2069', 'unusual_character'],
    ['echo a\u00A0b', 'unusual_character'],
    ['echo a\u0000b', 'unusual_character'],
    ['echo a\u0007b', 'unusual_character'],
    ['ls\r\n', 'unusual_character'],
    ["echo $'\\x00'", 'unusual_character'],
  ])('%j -> %s', (source, kind) => {
    const analysis = analyzeShellCommand(source);
    expect(analysis.simple).toBe(false);
    expect(kinds(source)).toContain(kind);
  });

  it('describes the first issue in words a human can act on', () => {
    expect(analyzeShellCommand('echo $(rm -rf /)').issues[0]?.detail).toBe('command substitution `$(rm -rf /)`');
    expect(analyzeShellCommand('echo a\u200Bb').issues[0]?.detail).toBe('invisible or unusual character U+200B');
  });
});

describe('analyzeShellCommand: extraction for deny rules', () => {
  it('extracts the inside of substitutions in any position', () => {
    expect(commands('echo a$(rm x)b "$(curl y)" `id` <(ls z)')).toEqual([
      'echo a$(rm x)b $(curl y) `id` <(ls z)',
      '>rm x',
      '>curl y',
      '>id',
      '>ls z',
    ]);
  });

  it('extracts nested substitutions', () => {
    expect(commands('echo $(echo $(rm x))')).toEqual(['echo $(echo $(rm x))', '>echo $(rm x)', '>rm x']);
  });

  it('drops redirections and their targets from argv', () => {
    expect(commands('rm -rf / >/dev/null 2>&1 <in')).toEqual(['rm -rf /']);
  });

  it('strips assignments and reserved words in front of a command', () => {
    expect(commands('FOO=1 BAR="x y" rm a')).toEqual(['rm a']);
    expect(commands('if true; then rm a; else rm b; fi')).toEqual(['true', 'rm a', 'rm b']);
    expect(commands('while true; do { rm c; }; done')).toEqual(['true', 'rm c']);
  });

  it('sees commands inside subshells and function bodies', () => {
    expect(commands('(cd x && rm y)')).toEqual(['cd x', 'rm y']);
    expect(commands('f() { rm z; }; f')).toEqual(['f', 'rm z', 'f']);
  });

  it.each([
    ["bash -c 'rm -rf /'", ['rm -rf /']],
    ["sh -ec 'ls; rm a'", ['ls', 'rm a']],
    ['bash --norc -o pipefail -c "rm b"', ['rm b']],
    ["eval 'rm c'", ['rm c']],
    ['eval rm d', ['rm d']],
    ['sudo -u root -- rm e', ['rm e']],
    ['sudo FOO=1 rm e2', ['rm e2']],
    ['env -i -u PATH A=1 rm f', ['rm f']],
    ["env -S 'rm f2'", ['rm f2']],
    ['command -p rm g', ['rm g']],
    ['exec -a name rm h', ['rm h']],
    ['timeout -s KILL 5s rm i', ['rm i']],
    ['nice -n 5 nohup rm j', ['nohup rm j', 'rm j']],
    ['xargs -I {} rm k', ['rm k']],
    ['find . -exec rm {} \\; -execdir curl x +', ['rm {}', 'curl x']],
    ["su -c 'rm l' root", ['rm l']],
    ['watch -n 1 rm m', ['rm m']],
    ["alias ls='rm n'", ['rm n']],
    ["trap 'rm o' EXIT", ['rm o']],
    ['/usr/bin/sudo rm p', ['rm p']],
    ["sudo bash -c 'eval \"rm q\"'", ['bash -c eval "rm q"', 'eval rm q', 'rm q']],
  ])('unwraps %j', (source, inner) => {
    const analysis = analyzeShellCommand(source);
    expect(analysis.simple).toBe(false);
    expect(analysis.commands.filter((sub) => sub.nested).map((sub) => sub.words.join(' '))).toEqual(inner);
  });

  it('treats a shell running a script file as a wrapper with nothing to extract', () => {
    const analysis = analyzeShellCommand('bash deploy.sh');
    expect(analysis.simple).toBe(false);
    expect(analysis.commands.map((sub) => sub.words.join(' '))).toEqual(['bash deploy.sh']);
  });

  it('does not treat find without -exec as a wrapper', () => {
    expect(analyzeShellCommand('find . -name "x.ts" -delete').simple).toBe(true);
  });

  it('bounds wrapper recursion', () => {
    const source = `${'bash -c "eval '.repeat(1)}${"sudo ".repeat(40)}rm x"`;
    const analysis = analyzeShellCommand(source);
    expect(analysis.simple).toBe(false);
    expect(analysis.issues.map((issue) => issue.kind)).toContain('nesting_limit');
  });
});
