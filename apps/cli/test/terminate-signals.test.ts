// SIGTERM and SIGHUP (a supervisor stopping the CLI, the terminal closing) end the CLI at once
// with 128 + the signal number, after cancelling the run; `process.exit` then runs the local
// backend's exit hook, which kills the tool processes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { main } from '../src/main.js';
import { cleanEnv, memoryIo, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

describe('a3s-code run under SIGTERM / SIGHUP', () => {
  const fixture = scriptedRunFixture();

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s cancels the run and exits with %i', async (signal, code) => {
    const ws = fixture.tempDir('a3s-cli-term-');
    const home = fixture.tempDir('a3s-cli-home-');
    writeWorkspaceConfig(ws, await fixture.start([toolCallResponse('bash', { command: 'touch started.flag; sleep 30' }), textResponse('done')]), home);
    const memory = memoryIo({ env: cleanEnv(home), cwd: ws });
    let terminate: ((s: 'SIGTERM' | 'SIGHUP') => void) | undefined;
    const exits: number[] = [];
    const io = {
      ...memory.io,
      onTerminate: (handler: (s: 'SIGTERM' | 'SIGHUP') => void) => {
        terminate = handler;
        return () => {
          terminate = undefined;
        };
      },
      exit: (value: number) => void exits.push(value),
    };
    const run = main(['run', 'sleep', '--workspace', ws, '--yes'], io);
    for (let attempt = 0; attempt < 400 && !existsSync(join(ws, 'started.flag')); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(terminate).toBeDefined();
    terminate?.(signal);
    expect(exits).toEqual([code]);
    await run;
    expect(memory.stderr()).toContain(`${signal}, stopping the run`);
    expect(terminate).toBeUndefined();
  });
});
