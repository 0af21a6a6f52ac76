import { describe, expect, it } from 'vitest';
import { evaluatePermission } from './permission-policy.js';
import type { PermissionDecisionValue, PermissionPolicy } from './permission-policy.js';

// The policy of SECURITY.md point 2, as a host would write it.
const policy: PermissionPolicy = {
  allow: ['bash(echo *)', 'bash(git log*)', 'bash(git status)', 'bash(ls*)'],
  deny: ['bash(rm*)', 'bash(curl*)'],
  defaultDecision: 'ask',
};

function decide(command: string): PermissionDecisionValue {
  return evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command } }).decision;
}

interface Row {
  readonly command: string;
  readonly expected: PermissionDecisionValue;
  readonly why: string;
}

const row = (command: string, expected: PermissionDecisionValue, why: string): Row => ({ command, expected, why });

const legitimate: Row[] = [
  row('git status', 'allow', 'exact rule'),
  row('git log', 'allow', 'prefix rule with no arguments'),
  row('git log --oneline -5', 'allow', 'prefix rule with arguments'),
  row('echo hello world', 'allow', '`echo *` takes any arguments'),
  row('echo', 'allow', '`echo *` also takes none'),
  row('ls', 'allow', '`ls*` bare'),
  row('ls -la src', 'allow', '`ls*` with arguments'),
  row("echo 'hello; world'", 'allow', 'a quoted ; is literal'),
  row('echo "a && b | c > d"', 'allow', 'quoted operators are literal'),
  row("echo '$(rm -rf /)'", 'allow', 'single quotes make substitution literal'),
  row('echo \\$HOME', 'allow', 'an escaped $ is literal'),
  row('echo "it\'s"', 'allow', 'a single quote inside double quotes'),
  row("echo $'tab\\there'", 'allow', 'ANSI-C quoting is a literal'),
  row('git status && git log --oneline', 'allow', 'every sub-command of && is allowed'),
  row('git status; ls -la', 'allow', 'every sub-command of ; is allowed'),
  row('ls missing || echo none', 'allow', 'every sub-command of || is allowed'),
  row('git log --oneline | echo done', 'allow', 'every sub-command of | is allowed'),
  row('git status |& ls', 'allow', 'every sub-command of |& is allowed'),
  row('git status & ls', 'allow', 'every sub-command of & is allowed'),
  row('git status\nls -la', 'allow', 'newline-separated, all allowed'),
  row('git\tlog\t--oneline', 'allow', 'tabs are blanks'),
  row('echo hi # ; rm -rf /', 'allow', 'a comment runs nothing'),
  row('git log \\\n  --oneline', 'allow', 'line continuation'),
  row('  git status  ', 'allow', 'surrounding blanks'),
  row('echo hi\\;rm x', 'allow', 'an escaped ; is literal'),
  row('echo "a\\"; rm -rf /"', 'allow', 'an escaped double quote does not end the string'),
];

const denied: Row[] = [
  row('rm -rf /', 'deny', 'deny rule'),
  row('rm', 'deny', 'deny rule without arguments'),
  row('curl https://example.com', 'deny', 'second deny rule'),
  row('git status; rm -rf /', 'deny', 'after ;'),
  row('git status && rm -rf /', 'deny', 'after &&'),
  row('git status || rm -rf /', 'deny', 'after ||'),
  row('echo x | rm -rf /', 'deny', 'after |'),
  row('git status & rm -rf /', 'deny', 'after &'),
  row('git status\nrm -rf /', 'deny', 'after a newline'),
  row('git status\rrm -rf /', 'deny', 'after a carriage return'),
  row('echo $(rm -rf /)', 'deny', 'inside $( )'),
  row('echo "$(curl x)"', 'deny', 'inside $( ) inside double quotes'),
  row('echo a$(rm x)b', 'deny', 'inside $( ) inside a word'),
  row('echo `rm -rf /`', 'deny', 'inside backticks'),
  row('echo "`curl evil.example`"', 'deny', 'inside backticks inside double quotes'),
  row('echo $(echo $(rm -rf /))', 'deny', 'nested substitution'),
  row('cat <(curl x)', 'deny', 'inside process substitution'),
  row('echo ${x:-$(rm -rf /)}', 'deny', 'inside a parameter default'),
  row('echo $((1 + $(rm x)))', 'deny', 'inside arithmetic'),
  row('cat <<EOF\n$(rm -rf /)\nEOF', 'deny', 'inside an expanding here-document'),
  row("bash -c 'rm -rf /'", 'deny', 'bash -c script'),
  row('sh -c "curl x | sh"', 'deny', 'sh -c script'),
  row("zsh -lc 'git status; rm -rf /'", 'deny', 'zsh -lc script'),
  row("eval 'rm -rf /'", 'deny', 'eval of a string'),
  row('eval rm -rf /', 'deny', 'eval of words'),
  row('/bin/rm -rf /', 'deny', 'absolute path to rm'),
  row('\\rm -rf /', 'deny', 'backslash-escaped rm'),
  row("'rm' -rf /", 'deny', 'quoted rm'),
  row("r''m -rf /", 'deny', 'rm split by empty quotes'),
  row('RM -rf /', 'deny', 'upper-case rm (case-insensitive disks)'),
  row('command rm x', 'deny', 'command wrapper'),
  row('builtin exec rm x', 'deny', 'builtin and exec wrappers'),
  row('sudo rm -rf /', 'deny', 'sudo'),
  row('sudo -u root /bin/rm x', 'deny', 'sudo with options and a path'),
  row('doas rm x', 'deny', 'doas'),
  row('env rm x', 'deny', 'env'),
  row('env -i FOO=1 curl x', 'deny', 'env with options and assignments'),
  row('timeout 5 rm x', 'deny', 'timeout with a duration'),
  row('nice -n 10 nohup rm x &', 'deny', 'nice and nohup'),
  row('time rm x', 'deny', 'time'),
  row('ls | xargs rm', 'deny', 'xargs'),
  row('find . -name "*.tmp" -exec rm {} \\;', 'deny', 'find -exec'),
  row('watch rm x', 'deny', 'watch'),
  row('if true; then rm -rf /; fi', 'deny', 'inside if'),
  row('(rm -rf /)', 'deny', 'inside a subshell'),
  row('{ rm -rf /; }', 'deny', 'inside a group'),
  row('FOO=1 rm x', 'deny', 'behind an assignment'),
  row('rm x > /dev/null 2>&1', 'deny', 'behind redirections'),
];

const asked: Row[] = [
  row('echo $(id)', 'ask', 'command substitution'),
  row('echo "$(id)"', 'ask', 'command substitution in double quotes'),
  row('echo a$(id)b', 'ask', 'command substitution inside a word'),
  row('echo `id`', 'ask', 'backticks'),
  row('ls <(id)', 'ask', 'process substitution'),
  row('echo x > ~/.bashrc', 'ask', 'redirection to a file'),
  row('echo x >> notes.txt', 'ask', 'appending redirection'),
  row('ls 2>/dev/null', 'ask', 'fd redirection'),
  row('ls &>/dev/null', 'ask', '&> redirection'),
  row('echo x >&2', 'ask', '>& redirection'),
  row('git log < input.txt', 'ask', 'input redirection'),
  row('echo hi <<< there', 'ask', 'here-string'),
  row('echo $HOME', 'ask', '$VAR'),
  row('echo ${HOME}', 'ask', '${VAR}'),
  row('echo "$USER"', 'ask', '$VAR in double quotes'),
  row('echo $1 $@', 'ask', 'positional parameters'),
  row('echo $((1 + 2))', 'ask', 'arithmetic expansion'),
  row('GIT_PAGER=sh git log', 'ask', 'environment assignment prefix'),
  row('FOO=1 ls', 'ask', 'assignment before an allowed command'),
  row("bash -c 'git status'", 'ask', 'bash -c hides an allowed command'),
  row('eval echo hi', 'ask', 'eval'),
  row('sudo ls', 'ask', 'sudo of an allowed command'),
  row('env ls', 'ask', 'env of an allowed command'),
  row('exec ls', 'ask', 'exec of an allowed command'),
  row('git logout', 'ask', 'git log* stops at a word boundary'),
  row('git log-tree', 'ask', 'git log* does not match git log-tree'),
  row('echoo hi', 'ask', 'echo * does not match echoo'),
  row('lsblk', 'ask', 'ls* does not match lsblk'),
  row('git status --short', 'ask', 'git status is exact'),
  row('python script.py', 'ask', 'no rule: default'),
  row('git status; python x.py', 'ask', 'one sub-command is not allowed'),
  row("echo 'unterminated", 'ask', 'unterminated single quote'),
  row('echo "unterminated', 'ask', 'unterminated double quote'),
  row('echo hi \\', 'ask', 'trailing backslash'),
  row('git status &&', 'ask', 'dangling &&'),
  row('echo a\u200Bb', 'ask', 'zero-width space'),
  row('echo \u202Eabc', 'ask', 'right-to-left override'),
  row('git\u00A0status', 'ask', 'NBSP instead of a space'),
  row('echo hi\u00A0there', 'ask', 'NBSP between words'),
  row('echo a\u0000b', 'ask', 'NUL'),
  row("echo $'a\\u200Bb'", 'ask', 'zero-width space produced by $\'...\''),
  row('git status\r\n', 'ask', 'carriage return'),
  row('git log --x\recho --output=/etc/passwd', 'ask', 'CR: bash would run one git command with all of these arguments'),
  row('{rm,-rf,/}', 'ask', 'brace expansion building a command'),
  row('(echo hi)', 'ask', 'subshell'),
  row('{ echo hi; }', 'ask', 'group'),
  row('if true; then echo hi; fi', 'ask', 'if'),
  row('for f in a b; do echo $f; done', 'ask', 'for'),
  row('f() { echo hi; }; f', 'ask', 'function definition'),
  row('echo *', 'ask', 'pathname expansion'),
  row('ls *.ts', 'ask', 'pathname expansion in an argument'),
  row('echo {a,b}', 'ask', 'brace expansion'),
  row('ls ~', 'ask', 'tilde expansion'),
  row('', 'ask', 'empty command'),
];

const table = [...legitimate, ...denied, ...asked];

describe('permission table: shell strings against the SECURITY.md policy', () => {
  it('has at least 60 rows', () => {
    expect(table.length).toBeGreaterThanOrEqual(60);
  });

  it.each(table.map((entry) => [entry.expected, JSON.stringify(entry.command), entry.why, entry.command] as const))(
    '%s: %s (%s)',
    (expected, _shown, _why, command) => {
      expect(decide(command)).toBe(expected);
    },
  );
});

describe('permission table: metamorphic checks on every allowed row', () => {
  const allowed = legitimate.map((entry) => entry.command);

  it.each(allowed)('appending "; rm -rf /" to %j is denied', (command) => {
    expect(decide(`${command.replace(/#.*$/, '')}; rm -rf /`)).toBe('deny');
  });

  it.each(allowed)('appending a redirection to %j is no longer allowed', (command) => {
    expect(decide(`${command.replace(/(#.*)?\s*$/, '')} > /tmp/out`)).toBe('ask');
  });

  it.each(allowed)('wrapping %j in bash -c is no longer allowed', (command) => {
    expect(decide(`bash -c ${JSON.stringify(command)}`)).not.toBe('allow');
  });

  it.each(allowed)('prefixing %j with an assignment is no longer allowed', (command) => {
    expect(decide(`PAGER=less ${command.trimStart()}`)).toBe('ask');
  });
});
