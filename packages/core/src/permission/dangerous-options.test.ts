import { describe, expect, it } from 'vitest';
import { dangerousOptionOf } from './dangerous-options.js';
import { evaluatePermission } from './permission-policy.js';
import type { PermissionPolicy } from './permission-policy.js';

// Read-only-looking allow rules, as hosts write them.
const policy: PermissionPolicy = {
  allow: ['bash(git log*)', 'bash(git diff*)', 'bash(git grep*)', 'bash(git status)', 'bash(find *)', 'bash(sed -n *)', 'bash(sed *)', 'bash(rg *)', 'bash(sort *)', 'bash(tar -tvf *)', 'bash(tar -tf *)', 'bash(tree*)', 'bash(date*)', 'bash(curl -s *)', 'bash(less *)'],
  defaultDecision: 'ask',
};
const decide = (command: string): string => evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command } }).decision;

const TABLE: Record<string, { dangerous: string[]; fine: string[] }> = {
  git: {
    dangerous: ['git log --output=/tmp/x', 'git log --output /tmp/x', 'git log --outp=/tmp/x', 'git diff --no-index /etc/passwd a.txt', 'git diff --ext-diff', 'git log -p --textconv', 'git grep -O foo', 'git grep --open-files-in-pager=vi foo', 'git log --show-signature -1'],
    fine: ['git log --oneline -5', 'git diff HEAD~1 -- src', 'git grep -c foo', 'git log -c', 'git status'],
  },
  find: {
    dangerous: ['find . -delete', 'find . -name "*.tmp" -delete', 'find . -fprint /tmp/list', 'find . -fls /tmp/list', 'find . -fprintf /tmp/x %p'],
    fine: ['find . -name "*.ts"', 'find src -type f -newer package.json'],
  },
  sed: {
    dangerous: ["sed -n '1e id' a.txt", "sed '1e touch /tmp/x' a.txt", "sed 's/a/b/e' a.txt", "sed -n 's/a/b/w /tmp/out' a.txt", "sed 'w /tmp/out' a.txt", "sed -n '/x/r /etc/passwd' a.txt", "sed -e 's/a/b/' -e '2e id' a.txt", 'sed -i s/a/b/ a.txt', 'sed -ni p a.txt', 'sed --in-place=.bak s/a/b/ a.txt', 'sed -f script.sed a.txt'],
    fine: ["sed -n '1,20p' a.txt", "sed 's/foo/bar/g' a.txt", "sed -n '/start/,/end/p' a.txt", "sed -e 's/i/j/' a.txt", "sed '$d' a.txt"],
  },
  rg: {
    dangerous: ['rg --pre ./decode foo', "rg --pre='sh -c id' foo", 'rg --hostname-bin ./x foo'],
    fine: ['rg -n foo src', 'rg --files', 'rg -z foo'],
  },
  sort: { dangerous: ['sort -o /tmp/x a.txt', 'sort -ro /tmp/x a.txt', 'sort --output=/tmp/x a.txt', "sort --compress-program='sh' a.txt"], fine: ['sort -nr a.txt'] },
  tar: { dangerous: ['tar -tf a.tar --to-command=sh', 'tar -tf a.tar -I ./evil', "tar -tf a.tar --checkpoint=1 --checkpoint-action=exec='id'"], fine: ['tar -tvf a.tar'] },
  tree: { dangerous: ['tree -o /tmp/x'], fine: ['tree -L 2 src'] },
  date: { dangerous: ['date -s "2020-01-01"', 'date --set=2020-01-01'], fine: ['date +%s', 'date -u'] },
  curl: { dangerous: ['curl -s -o /tmp/x http://127.0.0.1/', 'curl -s -T secret.txt http://127.0.0.1/', 'curl -s -K cfg http://127.0.0.1/'], fine: ['curl -s http://127.0.0.1/'] },
  less: { dangerous: ['less -o /tmp/copy a.txt', 'less --log-file=/tmp/copy a.txt'], fine: ['less -R a.txt'] },
};

describe('writing and executing options of read-only-looking programs', () => {
  for (const [program, rows] of Object.entries(TABLE)) {
    it.each(rows.dangerous)(`${program}: %j is not allowed by a read-only allow rule`, (command) => {
      expect(dangerousOptionOf(command.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g)!.map((word) => word.replace(/^['"]|['"]$/g, '')))).not.toBeNull();
      expect(decide(command)).toBe('ask');
    });
    it.each(rows.fine)(`${program}: %j is still allowed`, (command) => {
      expect(decide(command)).toBe('allow');
    });
  }

  it('a rule that names the option covers it', () => {
    const named = { allow: ['bash(find . -name * -delete)'], defaultDecision: 'ask' as const };
    expect(evaluatePermission(named, { toolName: 'bash', target: { kind: 'command', command: 'find . -name x -delete' } }).decision).toBe('allow');
  });

  it('says why', () => {
    const decision = evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command: 'git log --output=/tmp/x' } });
    expect(decision.reason).toContain('--output');
  });
});
