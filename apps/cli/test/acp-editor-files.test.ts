// `a3s-code acp` with a client that offers fs/read_text_file and fs/write_text_file (issue 32):
// reads return the editor's unsaved buffer, edits land through the client's write, and our
// kernel still governs them: a deny-read path, a protected path or a denied rule is refused
// without any client call. Driven by the ACP library's own client over the binary's stdio.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { methods } from '@agentclientprotocol/sdk';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import { identifyProjectConfig, trustProjectConfig } from '../src/project-trust.js';
import { initialize, nonProtocolLines, startAcpAgent, updatesOf } from './acp-client.js';
import type { TestEditor } from './acp-client.js';
import { CLI_BIN_MISSING, cleanEnv, scriptedAcl, tempDir } from './cli-harness.js';

describe.skipIf(CLI_BIN_MISSING)('a3s-code acp: the editor serves reads and writes', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('read returns the unsaved buffer, an edit goes through fs/write_text_file, refused paths never reach the client', async () => {
    const server = await startScriptedModelServer({
      scenario: [
        toolCallResponse('read', { file_path: 'README.md' }),
        toolCallResponse('edit', { file_path: 'README.md', old_string: 'unsaved', new_string: 'edited' }),
        toolCallResponse('read', { file_path: 'secrets/key.txt' }),
        toolCallResponse('write', { file_path: '.a3s/hooks/evil.json', content: '{}' }),
        toolCallResponse('write', { file_path: 'blocked.txt', content: 'x' }),
        toolCallResponse('read', { file_path: 'notes.txt' }),
        textResponse('Done.'),
      ],
    });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-acp-fs-', { 'README.md': '# acp\n\nsaved\n', 'notes.txt': 'on disk only\n', 'secrets/key.txt': 'SECRET-32\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    mkdirSync(join(ws.dir, '.a3s'), { recursive: true });
    // The CLI tests run processes unsandboxed; the deny-read list binds the file tools all the same.
    const acl = scriptedAcl(server).replace('sandbox { mode = "off" }', `sandbox {\n  mode = "off"\n  deny_read = [${JSON.stringify(join(ws.dir, 'secrets'))}]\n}`);
    writeFileSync(join(ws.dir, '.a3s', 'config.acl'), `${acl}circuit_breaker_threshold = 10\npermission_policy {\n  deny = ["write(blocked.txt)"]\n  default_decision = "allow"\n}\n`);
    trustProjectConfig(identifyProjectConfig(join(ws.dir, '.a3s', 'config.acl')), { HOME: home.dir });

    const readme = join(ws.dir, 'README.md');
    const editor: TestEditor = { buffers: new Map([[readme, '# acp\n\nunsaved buffer\n']]), calls: [] };
    const agent = startAcpAgent(['--permission-mode', 'yolo'], { env: cleanEnv(home.dir), cwd: ws.dir, editor });
    cleanups.push(async () => {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    });
    await initialize(agent, { readTextFile: true, writeTextFile: true });
    const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
    const response = await agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'read and edit' }] });
    expect(response.stopReason).toBe('end_turn');

    const results = toolResultsOf(server.requests.at(-1)!).map((result) => result.content);
    // The unsaved buffer, not the disk.
    expect(results[0]).toContain('unsaved buffer');
    // The edit landed through the client (its buffer), not on disk; the diff shows the buffer.
    expect(editor.buffers.get(readme)).toBe('# acp\n\nedited buffer\n');
    expect(readFileSync(readme, 'utf8')).toBe('# acp\n\nsaved\n');
    const diff = updatesOf(agent, sessionId, 'tool_call_update').flatMap((update) => update.content ?? []).find((content) => content.type === 'diff');
    expect(diff).toEqual({ type: 'diff', path: readme, oldText: '# acp\n\nunsaved buffer\n', newText: '# acp\n\nedited buffer\n' });
    // Governed by our kernel: deny-read, protected path, deny rule; none reached the client.
    expect(results[2]).toMatch(/sandbox policy denies/);
    expect(results[3]).toMatch(/agent's own configuration/);
    expect(results[4]).toMatch(/denied|deny/i);
    // A file the editor does not hold open is read through it too (the client reads its disk).
    expect(results[5]).toContain('on disk only');
    // read; the edit's read; the edit's version check just before its write (the buffer must be
    // what the edit was computed from); the write; the read of notes.txt. Nothing else.
    expect(editor.calls).toEqual([`read ${readme}`, `read ${readme}`, `read ${readme}`, `write ${readme}`, `read ${join(ws.dir, 'notes.txt')}`]);
    expect(await agent.close()).toBe(0);
    expect(nonProtocolLines(agent.stdout())).toEqual([]);
  }, 120_000);
});
