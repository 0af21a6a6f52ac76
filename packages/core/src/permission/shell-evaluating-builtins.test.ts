import { describe, expect, it } from 'vitest';
import { evaluatePermission } from './permission-policy.js';
import { analyzeShellCommand } from './shell-command-parser.js';

// Bash evaluates these quoted words as arithmetic, and arithmetic subscripts run `$(...)`:
// every payload below ran `touch` on bash 5.2 although its `$(...)` is single-quoted.
const PAYLOADS = [
  "printf -v 'a[$(touch pwned)]' x",
  "printf -v 'a[`touch pwned`]' %s x",
  "test -v 'a[$(touch pwned)]'",
  "[ -v 'a[$(touch pwned)]' ]",
  "declare 'a[$(touch pwned)]=1'",
  "typeset 'a[$(touch pwned)]=1'",
  "local 'a[$(touch pwned)]=1'",
  "read 'a[$(touch pwned)]'",
  "let 'x=a[$(touch pwned)]'",
  'let x=1+2',
  "unset 'a[$(touch pwned)]'",
  'declare -i x',
  "builtin printf -v 'a[$(touch pwned)]' x",
  "command test -v 'a[$(touch pwned)]'",
  "echo ok && printf -v 'a[$(touch pwned)]' x",
  "mapfile -C 'touch pwned' -c 1 lines",
  "readarray -tC 'touch pwned' lines",
  "/usr/bin/TEST -v 'a[$(touch pwned)]'",
];

describe('builtins that evaluate quoted words as arithmetic', () => {
  it.each(PAYLOADS)('%j is not provably simple', (command) => {
    const analysis = analyzeShellCommand(command);
    expect(analysis.simple).toBe(false);
    expect(analysis.issues.map((issue) => issue.kind)).toContain('arithmetic_evaluation');
  });

  it.each(PAYLOADS)('%j is never allowed by a matching allow rule', (command) => {
    const policy = { allow: ['bash(printf *)', 'bash(test *)', 'bash([ *)', 'bash(declare *)', 'bash(typeset *)', 'bash(local *)', 'bash(read *)', 'bash(let *)', 'bash(unset *)', 'bash(echo *)', 'bash(mapfile *)', 'bash(readarray *)', 'bash(builtin *)', 'bash(command *)', 'bash(/usr/bin/TEST *)'], defaultDecision: 'deny' as const };
    const decision = evaluatePermission(policy, { toolName: 'bash', target: { kind: 'command', command } });
    expect(decision.decision).not.toBe('allow');
  });

  it.each(['printf "%s\\n" hello', 'printf -v out %s x', 'test -f README.md', '[ -d src ]', 'read line', 'export FOO', 'unset FOO', 'exit 1'])('%j stays simple', (command) => {
    expect(analyzeShellCommand(command).simple).toBe(true);
  });
});
