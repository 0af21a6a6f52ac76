import { cpSync, existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeError } from '@a3s-lab/code';
import type { Agent } from '@a3s-lab/code';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import type { Style } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { configFromEnvironment } from './config-discovery.js';
import type { ConfigSource } from './config-discovery.js';
import { DEMO_TEST_COMMAND, createDemoScenario } from './demo-scenario.js';
import { EXIT_CODES } from './exit-codes.js';
import { hostRun, liveProgress } from './host-run.js';
import type { DemoCommandOptions } from './parse-args.js';
import { reportError } from './report-error.js';
import { INTERACTIVE_CONFIRMATION_TIMEOUT_MS, createAgentFrom } from './run-command.js';
import { formatDiff, oneLine } from './tool-summary.js';

/** The prompt of the demo session. */
export const DEMO_PROMPT =
  `The tests of this project fail (run them with \`${DEMO_TEST_COMMAND}\`). ` +
  'Find the bug, fix it with a minimal edit, then run the tests again to confirm they pass.';

/** Model name the bundled scripted model answers as. */
export const SCRIPTED_DEMO_MODEL = 'scripted/demo';

/**
 * The bundled sample repository. `src/` and `dist/` are siblings of `fixtures/`, so the same
 * relative URL works from the TypeScript source and from the built file.
 */
export function demoRepoPath(): string {
  return fileURLToPath(new URL('../fixtures/demo-repo', import.meta.url));
}

/**
 * The demo's permissions: it works on a throw-away copy, so reads, edits and running the tests
 * (`node test.js`, `node --test`, `npm test`) need no confirmation; any other command still asks
 * (or is denied when nobody can answer) — a real model could otherwise run arbitrary `node -e`.
 */
export const DEMO_PERMISSION_POLICY = Object.freeze({
  allow: ['read', 'ls', 'glob', 'grep', 'update_plan', 'write', 'edit', 'patch', 'bash(node test.js*)', 'bash(node --test*)', 'bash(npm test*)', 'bash(npm run test*)'],
  defaultDecision: 'ask' as const,
});

/** `a3s-code demo`: fixes the bug of a copy of the bundled sample repo. Returns the exit code. */
export async function demoCommand(options: DemoCommandOptions, io: CliIo, style: Style): Promise<number> {
  // Progress and the closing report go to stderr; stdout gets only the session's final answer
  // (or, with --json, only the envelopes).
  const say = (text: string): void => {
    io.stderr.write(`${text}\n`);
  };
  let server: ScriptedModelServer | undefined;
  let agent: Agent | undefined;
  try {
    const fixture = demoRepoPath();
    if (!existsSync(fixture)) throw new CodeError('INTERNAL_ERROR', `the bundled demo repository is missing: ${fixture}`, { details: { path: fixture } });
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-demo-')));
    cpSync(fixture, workspace, { recursive: true });
    say(`${style.bold('a3s-code demo')}: a copy of the bundled sample repo is in ${style.cyan(workspace)}`);

    const fromEnv = configFromEnvironment(io.env);
    let source: ConfigSource;
    let model: string;
    if (fromEnv === null || fromEnv.kind !== 'env') {
      const live = !options.json && liveProgress(io);
      server = await startScriptedModelServer({ scenario: createDemoScenario(live ? { latencyMs: 350, chunkDelayMs: 40 } : {}) });
      const [provider, id] = SCRIPTED_DEMO_MODEL.split('/') as [string, string];
      model = SCRIPTED_DEMO_MODEL;
      source = {
        kind: 'env',
        model,
        description: 'bundled scripted model',
        acl: `default_model = "${model}"\nproviders "${provider}" {\n  kind = "anthropic"\n  api_key = "scripted-demo-key"\n  base_url = "${server.anthropicBaseUrl}"\n  models "${id}" { tool_call = true }\n}\n`,
      };
      say(style.yellow('no API key found: using the bundled scripted model') + style.dim(' (set ANTHROPIC_API_KEY, or OPENAI_API_KEY + OPENAI_BASE_URL, to use a real one)'));
    } else {
      source = fromEnv;
      model = fromEnv.model;
      say(`using ${style.bold(model)} (from ${fromEnv.description})`);
    }
    agent = await createAgentFrom(source, io);
    const session = await agent.sessionAsync(workspace, {
      permissionPolicy: { ...DEMO_PERMISSION_POLICY, allow: [...DEMO_PERMISSION_POLICY.allow] },
      confirmationPolicy: { defaultTimeoutMs: INTERACTIVE_CONFIRMATION_TIMEOUT_MS },
      maxToolRounds: 20,
    });
    say(style.dim(`prompt: ${DEMO_PROMPT}`));
    const outcome = await hostRun({ session, prompt: DEMO_PROMPT, io, style, json: options.json, yes: false, model });
    if (outcome.cancelled) return EXIT_CODES.cancelled;

    say('');
    if (outcome.changes.length === 0) say(style.yellow('the session changed no files'));
    else {
      say(style.bold('final diff:'));
      for (const change of outcome.changes) say(formatDiff(change.diff, style, '  '));
    }
    // Verify independently of what the model claimed: run the tests as the host.
    const verification = await session.tool('bash', { command: DEMO_TEST_COMMAND });
    const verdict = verification.output.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('exit code:') && !/^std(out|err):$/.test(l)).at(-1) ?? '';
    const passed = verification.exitCode === 0;
    say(`${passed ? style.green('✓ tests pass') : style.red('✗ tests still fail')}: ${DEMO_TEST_COMMAND} -> ${oneLine(verdict, 160)}`);
    say(style.dim(`workspace kept at ${workspace}`));
    if (outcome.exitCode !== EXIT_CODES.success && outcome.exitCode !== EXIT_CODES.toolFailure) return outcome.exitCode;
    return passed ? EXIT_CODES.success : EXIT_CODES.toolFailure;
  } catch (error) {
    return reportError(io, options.json, style, error);
  } finally {
    await agent?.close();
    await server?.close();
  }
}
