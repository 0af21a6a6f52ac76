import { describe, expect, it } from 'vitest';
import { evaluatePermission } from './permission-policy.js';
import type { PermissionPolicy } from './permission-policy.js';
import { analyzeShellCommand } from './shell-command-parser.js';

// Every command that executes its arguments, as a table: each row must let the deny rule see
// `rm` (or, when what runs cannot be followed, at least not be provably simple, so an allow
// rule for the wrapper never auto-allows it).
const policy: PermissionPolicy = { allow: ['bash'], deny: ['bash(rm*)'] };
const decide = (command: string): string => evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command } }).decision;

const DENIED: string[] = [
  // restricted and other shells
  "rbash -c 'rm -rf /tmp/x'",
  "rzsh -c 'rm -rf /tmp/x'",
  "rksh -c 'rm -rf /tmp/x'",
  "oksh -c 'rm -rf /tmp/x'",
  // personality / limits / privileges / scheduling
  'setarch x86_64 rm -rf /tmp/x',
  'setarch x86_64 -R rm -rf /tmp/x',
  'linux64 rm -rf /tmp/x',
  'linux32 rm -rf /tmp/x',
  'i386 rm -rf /tmp/x',
  'prlimit --nofile=1024 rm -rf /tmp/x',
  'prlimit --nofile 1024 rm -rf /tmp/x',
  'setpriv --reuid=1000 rm -rf /tmp/x',
  'setpriv --reuid 1000 --regid 1000 --clear-groups rm -rf /tmp/x',
  'numactl --cpunodebind=0 rm -rf /tmp/x',
  'cgexec -g cpu:slow rm -rf /tmp/x',
  'systemd-run --user --wait rm -rf /tmp/x',
  'firejail --noprofile rm -rf /tmp/x',
  'bwrap --bind / / rm -rf /tmp/x',
  'fakeroot rm -rf /tmp/x',
  "faketime '2020-01-01' rm -rf /tmp/x",
  'cpulimit -l 50 -- rm -rf /tmp/x',
  'torsocks rm -rf /tmp/x',
  'proxychains4 -q rm -rf /tmp/x',
  'valgrind --quiet rm -rf /tmp/x',
  'perf stat rm -rf /tmp/x',
  "sg staff -c 'rm -rf /tmp/x'",
  'sg staff rm -rf /tmp/x',
  'chronic rm -rf /tmp/x',
  'ifne rm -rf /tmp/x',
  'chpst -u nobody rm -rf /tmp/x',
  // options of unknown arity cannot hide the command
  'sudo --some-new-option value rm -rf /tmp/x',
  'timeout --new-flag 7 5 rm -rf /tmp/x',
  // package and environment runners
  'npx rm -rf /tmp/x',
  "npx -c 'rm -rf /tmp/x'",
  'npm exec -- rm -rf /tmp/x',
  'pnpm exec rm -rf /tmp/x',
  'pnpm dlx rm -rf /tmp/x',
  'yarn exec rm -rf /tmp/x',
  'bunx rm -rf /tmp/x',
  'uv run rm -rf /tmp/x',
  'uvx rm -rf /tmp/x',
  'poetry run rm -rf /tmp/x',
  'pipenv run rm -rf /tmp/x',
  'bundle exec rm -rf /tmp/x',
  'conda run -n base rm -rf /tmp/x',
  'mise exec -- rm -rf /tmp/x',
  'direnv exec . rm -rf /tmp/x',
  "nix develop -c 'rm -rf /tmp/x'",
  "nix-shell --run 'rm -rf /tmp/x'",
  'doppler run -- rm -rf /tmp/x',
  // privilege droppers, init shims, launchers
  "capsh --caps='' -- -c 'rm -rf /tmp/x'",
  'gosu nobody rm -rf /tmp/x',
  'su-exec nobody rm -rf /tmp/x',
  'tini -- rm -rf /tmp/x',
  'dumb-init rm -rf /tmp/x',
  'ssh-agent rm -rf /tmp/x',
  'xvfb-run -a rm -rf /tmp/x',
  'eatmydata rm -rf /tmp/x',
  'ccache rm -rf /tmp/x',
  'lxc-attach -n box -- rm -rf /tmp/x',
  "hyperfine 'rm -rf /tmp/x'",
  'watchexec -- rm -rf /tmp/x',
  // nested through a new wrapper
  "setarch x86_64 bash -c 'rm -rf /tmp/x'",
  "linux64 sudo -u root sh -c 'rm -rf /tmp/x'",
];

const NOT_SIMPLE: string[] = [
  "awk 'BEGIN { system(\"rm -rf /tmp/x\") }'",
  'awk -f prog.awk data',
  "gawk 'BEGIN { print | \"sh\" }'",
  "mawk 'BEGIN{system(\"id\")}'",
  "perl -e 'unlink glob \"/tmp/x/*\"'",
  "perl -E 'system qw(rm -rf /tmp/x)'",
  "python3 -c 'import shutil; shutil.rmtree(\"/tmp/x\")'",
  "python3.12 -c 'import os; os.system(\"id\")'",
  "ruby -e 'system(\"id\")'",
  "node -e 'require(\"child_process\").execSync(\"id\")'",
  "node --eval='process.exit(1)'",
  "php -r 'system(\"id\");'",
  "lua -e 'os.execute(\"id\")'",
  "pwsh -Command 'Remove-Item -Recurse /tmp/x'",
  "vim -c '!rm -rf /tmp/x' -c q",
  "gdb -batch -ex 'shell id'",
  'ssh host rm -rf /tmp/x',
  "tmux new-session -d 'rm -rf /tmp/x'",
  "echo 'rm -rf /tmp/x' | at now",
  "docker run --rm alpine sh -c 'id'",
  "compgen -C 'touch /tmp/x' word",
  "complete -C 'touch /tmp/x' git",
  "bind -x '\\C-t: touch /tmp/x'",
  'enable -f ./evil.so evil',
  "nodemon --exec 'rm -rf /tmp/x'",
];

describe('wrapper commands (every command that executes its arguments)', () => {
  it.each(DENIED)('%j is denied by bash(rm*)', (command) => {
    expect(decide(command)).toBe('deny');
  });

  it.each([...DENIED, ...NOT_SIMPLE])('%j is not provably simple', (command) => {
    expect(analyzeShellCommand(command).simple).toBe(false);
  });

  it.each(NOT_SIMPLE)('%j is never auto-allowed by an allow rule for its program', (command) => {
    const name = command.split(' ')[0] as string;
    const decision = evaluatePermission({ allow: [`bash(${name} *)`], deny: ['bash(rm*)'] }, { toolName: 'bash', target: { kind: 'command', command } });
    expect(decision.decision).not.toBe('allow');
  });

  it.each(['python3 script.py', 'node build.js', 'perl -w tool.pl', 'npm test', 'pnpm run build', 'uv pip list', 'timeout 5 echo rm'])('%j is not an inline-code interpreter', (command) => {
    const analysis = analyzeShellCommand(command);
    expect(analysis.issues.some((issue) => issue.detail.includes('(interpreter)'))).toBe(false);
  });
});
