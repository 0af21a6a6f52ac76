// Each command loads what it needs: `--version`, `run` and `acp` (which editors start for every
// session) never load the server, its UI protocols or the demo's scripted model server. Checked on
// the binary by the URLs its process resolves (record-modules.mjs).
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textResponse } from '@a3s-lab/code-testing';
import { CLI_BIN_MISSING, CLI_DIR, cleanEnv, runBin, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

/** Modules of the other commands: the server and its protocols, the ACP SDK, the scripted model. */
const SERVER = /\/apps\/server\/|@a3s-lab\/server\/|\/hono\/|@hono\/|@ag-ui\//;
const ACP = /@agentclientprotocol\//;
const SCRIPTED_MODEL = /\/packages\/testing\/|@a3s-lab\/code-testing\//;

describe.skipIf(CLI_BIN_MISSING || typeof registerHooks !== 'function')('the modules a command loads', () => {
  const fixture = scriptedRunFixture();
  async function loaded(args: readonly string[], cwd: string, home: string): Promise<{ code: number; urls: string[] }> {
    const log = join(fixture.tempDir('a3s-modules-'), 'modules.log');
    const env = cleanEnv(home, { A3S_MODULE_LOG: log, NODE_OPTIONS: `--import=${join(CLI_DIR, 'test', 'record-modules.mjs')}` });
    const result = await runBin(args, { env, cwd });
    return { code: result.code, urls: readFileSync(log, 'utf8').split('\n').filter((line) => line !== '') };
  }

  it('--version loads none of the commands', async () => {
    const home = fixture.tempDir('a3s-home-');
    const { code, urls } = await loaded(['--version'], home, home);
    expect(code).toBe(0);
    expect(urls.some((url) => url.endsWith('/main.js'))).toBe(true);
    for (const other of [SERVER, ACP, SCRIPTED_MODEL]) expect(urls.filter((url) => other.test(url))).toEqual([]);
  });

  it('run loads the SDK and the provider, not the server, ACP or the scripted model', async () => {
    const server = await fixture.start([textResponse('done')]);
    const home = fixture.tempDir('a3s-home-');
    const workspace = fixture.tempDir('a3s-ws-', { 'README.md': 'x\n' });
    writeWorkspaceConfig(workspace, server, home);
    const { code, urls } = await loaded(['run', 'say done', '--workspace', workspace, '--yes'], workspace, home);
    expect(code).toBe(0);
    expect(urls.some((url) => url.includes('anthropic-ai-sdk.cjs') || url.includes('@anthropic-ai/sdk'))).toBe(true);
    for (const other of [SERVER, ACP, SCRIPTED_MODEL]) expect(urls.filter((url) => other.test(url))).toEqual([]);
  });

  it('acp loads the ACP SDK, not the server or the scripted model', async () => {
    const home = fixture.tempDir('a3s-home-');
    const { code, urls } = await loaded(['acp', '--help'], home, home);
    expect(code).toBe(0);
    expect(urls.some((url) => ACP.test(url))).toBe(true);
    for (const other of [SERVER, SCRIPTED_MODEL]) expect(urls.filter((url) => other.test(url))).toEqual([]);
  });
});
