import { CodeError, VERIFICATION_REPORT_SCHEMA } from '@a3s-lab/code-core';
import type { ToolResult, VerificationCheckV1, VerificationCommand, VerificationReportV1 } from '@a3s-lab/code-core';

/** How the checks reach the kernel. */
export interface VerificationRunner {
  readonly hasBash: boolean;
  readonly invoke: (command: string, timeoutMs: number | undefined) => Promise<ToolResult>;
}

/** Bytes of output kept per check as evidence (the tail: where test runners print verdicts). */
const OUTPUT_EXCERPT_CHARS = 4096;

/**
 * Runs the commands one after another and builds the report: exit 0 is `passed`, another exit
 * code `failed`, a call that could not run (denied, timed out, cancelled) `error`. The report
 * fails when a required check did not pass. Bad input is a SESSION_ERROR before anything runs.
 */
export async function runVerificationCommands(subject: string, commands: readonly VerificationCommand[], runner: VerificationRunner): Promise<VerificationReportV1> {
  validateInput(subject, commands);
  if (!runner.hasBash) {
    throw new CodeError('SESSION_ERROR', 'verifyCommands needs the bash tool, which this workspace does not offer', { details: { field: 'commands', tool: 'bash' } });
  }
  const checks: VerificationCheckV1[] = [];
  for (const c of commands) {
    const started = Date.now();
    const result = await runner.invoke(c.command, c.timeoutMs);
    const durationMs = Date.now() - started;
    const base = { id: c.id, kind: c.kind, description: c.description, required: c.required ?? true, command: c.command, durationMs, output: excerpt(result.output) };
    if (result.errorKind !== undefined) checks.push({ ...base, status: 'error', exitCode: result.exitCode, error: `${result.errorKind.type}: ${excerpt(result.output, 512)}` });
    else checks.push({ ...base, status: result.exitCode === 0 ? 'passed' : 'failed', exitCode: result.exitCode });
  }
  const failing = checks.filter((c) => c.required && c.status !== 'passed');
  return {
    schema: VERIFICATION_REPORT_SCHEMA,
    subject,
    status: failing.length === 0 ? 'passed' : 'failed',
    checks,
    source: 'verifyCommands',
    summary: failing.length === 0 ? `${checks.length} check(s) passed` : `required check(s) not passed: ${failing.map((c) => c.id).join(', ')}`,
  };
}

function excerpt(text: string, max = OUTPUT_EXCERPT_CHARS): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

function validateInput(subject: unknown, commands: unknown): void {
  const bad = (field: string, expected: string): never => {
    throw new CodeError('SESSION_ERROR', `verifyCommands: ${field} must be ${expected}`, { details: { field } });
  };
  if (typeof subject !== 'string' || subject.length === 0 || subject.length > 1024) bad('subject', 'a non-empty string (at most 1024 characters)');
  if (!Array.isArray(commands) || commands.length === 0 || commands.length > 256) bad('commands', 'an array of 1..256 commands');
  const ids = new Set<string>();
  (commands as unknown[]).forEach((raw, i) => {
    const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    for (const key of ['id', 'kind', 'command'] as const) if (typeof c[key] !== 'string' || (c[key] as string).length === 0) bad(`commands[${i}].${key}`, 'a non-empty string');
    if (typeof c['description'] !== 'string') bad(`commands[${i}].description`, 'a string');
    if (c['required'] !== undefined && typeof c['required'] !== 'boolean') bad(`commands[${i}].required`, 'a boolean');
    if (c['timeoutMs'] !== undefined && !(Number.isSafeInteger(c['timeoutMs']) && (c['timeoutMs'] as number) > 0)) bad(`commands[${i}].timeoutMs`, 'a positive integer');
    if (ids.has(c['id'] as string)) bad(`commands[${i}].id`, 'unique');
    ids.add(c['id'] as string);
    for (const key of Object.keys(c)) if (!['id', 'kind', 'description', 'command', 'required', 'timeoutMs'].includes(key)) bad(`commands[${i}].${key}`, 'absent (unknown field)');
  });
}
