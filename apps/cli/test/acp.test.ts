// `a3s-code acp` as an editor runs it: the built binary on stdio, driven by the ACP library's
// own client side, the model a scripted server speaking the real Anthropic protocol.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { methods } from '@agentclientprotocol/sdk';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { fixtureMcpStdioCommand } from '@a3s-lab/code-testing/mcp';
import { identifyProjectConfig, trustProjectConfig } from '../src/project-trust.js';
import { agentText, chunkText, initialize, nonProtocolLines, startAcpAgent, updatesOf } from './acp-client.js';
import type { AcpAgentProcess } from './acp-client.js';
import { CLI_BIN_MISSING, cleanEnv, eventually, liveProcessesInGroup, scriptedAcl, tempDir } from './cli-harness.js';

const POLICY = `permission_policy {
  allow = ["read", "ls", "glob", "grep", "update_plan"]
  ask = ["bash*", "edit", "write", "patch"]
  default_decision = "ask"
}
`;

describe.skipIf(CLI_BIN_MISSING)('a3s-code acp', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const setUp = async (scenario: Scenario): Promise<{ server: ScriptedModelServer; workspace: string; home: string }> => {
    const server = await startScriptedModelServer({ scenario });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-acp-', { 'README.md': '# acp\n\nhello\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    mkdirSync(join(ws.dir, '.a3s'), { recursive: true });
    writeFileSync(join(ws.dir, '.a3s', 'config.acl'), `${scriptedAcl(server)}${POLICY}`);
    trustProjectConfig(identifyProjectConfig(join(ws.dir, '.a3s', 'config.acl')), { HOME: home.dir });
    return { server, workspace: ws.dir, home: home.dir };
  };
  const start = (workspace: string, home: string, args: readonly string[] = []): AcpAgentProcess => {
    const agent = startAcpAgent(args, { env: cleanEnv(home), cwd: workspace });
    cleanups.push(async () => {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    });
    return agent;
  };

  it('initialize, a new session, an asked bash call allowed once, an edit with its diff, end_turn; stdout is protocol only', async () => {
    const { server, workspace, home } = await setUp([
      toolCallResponse('bash', { command: 'echo acp-output' }, { text: 'Running it.' }),
      toolCallResponse('edit', { file_path: 'README.md', old_string: 'hello', new_string: 'hello, editor' }),
      textResponse('Done: ran it and edited the README.'),
    ]);
    const agent = start(workspace, home);
    const init = await initialize(agent);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { embeddedContext: true, image: true }, mcpCapabilities: { http: true } });
    expect(init.agentInfo?.name).toBe('a3s-code');

    const created = await agent.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe('default');
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(['default', 'accept-edits', 'plan', 'yolo']);
    const sessionId = created.sessionId;

    const response = await agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'run it and edit the readme' }] });
    expect(response.stopReason).toBe('end_turn');

    // Two asks (bash, edit), each answered allow-once through session/request_permission.
    expect(agent.permissionRequests.map((r) => r.toolCall.title)).toEqual(['bash echo acp-output', 'edit README.md']);
    expect(agent.permissionRequests[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const calls = updatesOf(agent, sessionId, 'tool_call');
    expect(calls.map((c) => [c.title, c.kind])).toEqual([['bash echo acp-output', 'execute'], ['edit README.md', 'edit']]);
    expect(calls[1]!.locations).toEqual([{ path: join(workspace, 'README.md') }]);
    const results = updatesOf(agent, sessionId, 'tool_call_update').filter((u) => u.status === 'completed' || u.status === 'failed');
    expect(results.map((u) => [u.toolCallId, u.status])).toEqual(calls.map((c) => [c.toolCallId, 'completed']));
    const bashText = results[0]!.content?.find((c) => c.type === 'content');
    expect(bashText?.type === 'content' && bashText.content.type === 'text' ? bashText.content.text : '').toContain('acp-output');
    const diff = results[1]!.content?.find((c) => c.type === 'diff');
    expect(diff).toEqual({ type: 'diff', path: join(workspace, 'README.md'), oldText: '# acp\n\nhello\n', newText: '# acp\n\nhello, editor\n' });
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('# acp\n\nhello, editor\n');
    expect(agentText(agent, sessionId)).toBe('Running it.Done: ran it and edited the README.');
    expect(toolResultsOf(server.requests[1]!)[0]?.content).toContain('acp-output');

    // A method the agent does not implement is refused, not accepted silently.
    await expect(agent.connection.agent.request(methods.agent.session.list, {})).rejects.toMatchObject({ code: -32601 });
    expect(await agent.close()).toBe(0);
    expect(nonProtocolLines(agent.stdout())).toEqual([]);
    expect(agent.stdout().endsWith('\n')).toBe(true);
    expect(agent.stderr()).toContain('a3s-code acp: ready');
    expect(server.errors).toEqual([]);
  }, 120_000);

  it('a rejected permission runs nothing, and the model is told', async () => {
    const { server, workspace, home } = await setUp([toolCallResponse('bash', { command: 'touch rejected.txt' }), textResponse('It was refused.')]);
    const agent = start(workspace, home);
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    agent.answer = 'reject_once';
    const response = await agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'make a file' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(agent.permissionRequests).toHaveLength(1);
    expect(existsSync(join(workspace, 'rejected.txt'))).toBe(false);
    expect(updatesOf(agent, sessionId, 'tool_call_update').at(-1)).toMatchObject({ status: 'failed' });
    expect(toolResultsOf(server.requests[1]!)[0]?.content).toMatch(/rejected by the user/);
    expect(await agent.close()).toBe(0);
    expect(nonProtocolLines(agent.stdout())).toEqual([]);
  }, 120_000);

  it('session/cancel mid-tool returns cancelled and leaves no process', async () => {
    const { workspace, home } = await setUp([toolCallResponse('bash', { command: 'echo $$ > pid.txt; sleep 60; touch late.txt' })]);
    const agent = start(workspace, home, ['--permission-mode', 'yolo']);
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    const prompt = agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'wait a minute' }] });
    expect(await eventually(() => existsSync(join(workspace, 'pid.txt')) && readFileSync(join(workspace, 'pid.txt'), 'utf8').trim().length > 0)).toBe(true);
    const pid = Number(readFileSync(join(workspace, 'pid.txt'), 'utf8').trim());
    expect(liveProcessesInGroup(pid).length).toBeGreaterThan(0);
    await agent.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(await eventually(() => liveProcessesInGroup(pid).length === 0)).toBe(true);
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
    expect(agent.permissionRequests).toEqual([]);
    expect(await agent.close()).toBe(0);
    expect(nonProtocolLines(agent.stdout())).toEqual([]);
  }, 120_000);

  it('SIGTERM mid-tool ends the tool processes and exits 143', async () => {
    const { workspace, home } = await setUp([toolCallResponse('bash', { command: 'echo $$ > pid.txt; sleep 60' })]);
    const agent = start(workspace, home, ['--permission-mode', 'yolo']);
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    void agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'wait' }] }).catch(() => undefined);
    expect(await eventually(() => existsSync(join(workspace, 'pid.txt')) && readFileSync(join(workspace, 'pid.txt'), 'utf8').trim().length > 0)).toBe(true);
    const pid = Number(readFileSync(join(workspace, 'pid.txt'), 'utf8').trim());
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(143);
    expect(await eventually(() => liveProcessesInGroup(pid).length === 0)).toBe(true);
    expect(nonProtocolLines(agent.stdout())).toEqual([]);
  }, 120_000);

  it('session/load in a new agent process replays the conversation and continues it', async () => {
    const { server, workspace, home } = await setUp([textResponse('The number is 42.'), textResponse('You asked about 42 before.')]);
    const first = start(workspace, home);
    await initialize(first);
    const { sessionId } = await first.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    const one = await first.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'remember the number 42' }] });
    expect(one.stopReason).toBe('end_turn');
    expect(await first.close()).toBe(0);

    const second = start(workspace, home);
    const init = await initialize(second);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const loaded = await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
    expect(loaded?.modes?.currentModeId).toBe('default');
    // The replay arrived before the load answered.
    const replayed = second.updates.filter((n) => n.sessionId === sessionId).map((n) => [n.update.sessionUpdate, chunkText(n.update)]);
    expect(replayed).toEqual([
      ['user_message_chunk', 'remember the number 42'],
      ['agent_message_chunk', 'The number is 42.'],
    ]);
    const two = await second.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'what did I ask?' }] });
    expect(two.stopReason).toBe('end_turn');
    expect(agentText(second, sessionId)).toContain('You asked about 42 before.');
    const carried = JSON.stringify(server.requests[1]!.body);
    expect(carried).toContain('remember the number 42');
    expect(carried).toContain('The number is 42.');
    expect(carried).toContain('what did I ask?');
    // An unknown session is an error, not an empty session.
    await expect(second.connection.agent.request(methods.agent.session.load, { sessionId: 'no-such-session', cwd: workspace, mcpServers: [] })).rejects.toThrow(/no saved session/);
    expect(await second.close()).toBe(0);
    expect(nonProtocolLines(first.stdout() + second.stdout())).toEqual([]);
  }, 120_000);
});

describe.skipIf(CLI_BIN_MISSING)('a3s-code acp: modes, rules, context, disconnects', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const setUp = async (scenario: Scenario): Promise<{ server: ScriptedModelServer; agent: AcpAgentProcess; workspace: string; sessionId: string }> => {
    const server = await startScriptedModelServer({ scenario });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-acp-', { 'README.md': '# acp\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    mkdirSync(join(ws.dir, '.a3s'), { recursive: true });
    writeFileSync(join(ws.dir, '.a3s', 'config.acl'), `${scriptedAcl(server)}${POLICY}`);
    trustProjectConfig(identifyProjectConfig(join(ws.dir, '.a3s', 'config.acl')), { HOME: home.dir });
    const agent = startAcpAgent([], { env: cleanEnv(home.dir), cwd: ws.dir });
    cleanups.push(async () => {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    });
    await initialize(agent);
    const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
    return { server, agent, workspace: ws.dir, sessionId };
  };
  const prompt = (agent: AcpAgentProcess, sessionId: string, text: string) => agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

  it('"allow always" becomes a session rule: the second bash call is not asked', async () => {
    const { agent, workspace, sessionId } = await setUp([
      toolCallResponse('bash', { command: 'touch one.txt' }),
      toolCallResponse('bash', { command: 'touch two.txt' }),
      textResponse('Both.'),
    ]);
    agent.answer = 'allow_always';
    expect((await prompt(agent, sessionId, 'two files')).stopReason).toBe('end_turn');
    expect(agent.permissionRequests).toHaveLength(1);
    expect(existsSync(join(workspace, 'one.txt')) && existsSync(join(workspace, 'two.txt'))).toBe(true);
    expect(await agent.close()).toBe(0);
  }, 120_000);

  it('session/set_mode plan blocks what would run; yolo runs without asking; an unknown mode is refused', async () => {
    const { agent, workspace, sessionId } = await setUp([
      toolCallResponse('bash', { command: 'touch planned.txt' }),
      textResponse('Blocked in plan mode.'),
      toolCallResponse('bash', { command: 'touch yolo.txt' }),
      textResponse('Ran in yolo mode.'),
      toolCallResponse('bash', { command: 'touch asked.txt' }),
      textResponse('Asked again.'),
    ]);
    await agent.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
    expect((await prompt(agent, sessionId, 'try in plan mode')).stopReason).toBe('end_turn');
    expect(existsSync(join(workspace, 'planned.txt'))).toBe(false);
    await agent.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'yolo' });
    expect((await prompt(agent, sessionId, 'now in yolo mode')).stopReason).toBe('end_turn');
    expect(existsSync(join(workspace, 'yolo.txt'))).toBe(true);
    expect(agent.permissionRequests).toEqual([]);
    // Back to default: bash asks again (modes switch both ways).
    await agent.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'default' });
    agent.answer = 'reject_once';
    expect((await prompt(agent, sessionId, 'default again')).stopReason).toBe('end_turn');
    expect(agent.permissionRequests.map((r) => r.toolCall.title)).toEqual(['bash touch asked.txt']);
    expect(existsSync(join(workspace, 'asked.txt'))).toBe(false);
    await expect(agent.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'reckless' })).rejects.toMatchObject({ code: -32602 });
    expect(await agent.close()).toBe(0);
  }, 120_000);

  it('resource links and embedded resources reach the model; audio is refused', async () => {
    const { server, agent, workspace, sessionId } = await setUp([textResponse('Seen.')]);
    const response = await agent.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'look at these' },
        { type: 'resource_link', name: 'README.md', uri: `file://${join(workspace, 'README.md')}` },
        { type: 'resource', resource: { uri: `file://${join(workspace, 'open.ts')}`, mimeType: 'text/typescript', text: 'const unsaved = 1;' } },
      ],
    });
    expect(response.stopReason).toBe('end_turn');
    const sent = JSON.stringify(server.requests[0]!.body);
    expect(sent).toContain(`[README.md](${join(workspace, 'README.md')})`);
    expect(sent).toContain('const unsaved = 1;');
    await expect(agent.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] })).rejects.toMatchObject({ code: -32602 });
    // Extra workspace roots are not supported: refused, not ignored.
    await expect(agent.connection.agent.request(methods.agent.session.new, { cwd: workspace, additionalDirectories: ['/tmp'], mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    expect(await agent.close()).toBe(0);
  }, 120_000);

  it("the client's MCP servers are connected to the session and governed like every tool", async () => {
    const server = await startScriptedModelServer({ scenario: [toolCallResponse('mcp__fixture__echo', { text: 'from-mcp' }), textResponse('Echoed.')] });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-acp-', { 'README.md': '# acp\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    const config = join(ws.dir, 'agent.acl');
    writeFileSync(config, `${scriptedAcl(server)}${POLICY}`);
    const agent = startAcpAgent(['--config', config], { env: cleanEnv(home.dir), cwd: ws.dir });
    cleanups.push(async () => {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    });
    await initialize(agent);
    const fixture = fixtureMcpStdioCommand();
    const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [{ name: 'fixture', command: fixture.command, args: [...fixture.args], env: [] }] });
    expect((await prompt(agent, sessionId, 'echo through mcp')).stopReason).toBe('end_turn');
    expect(agent.permissionRequests.map((r) => r.toolCall.title)).toEqual(['mcp__fixture__echo from-mcp']);
    expect(updatesOf(agent, sessionId, 'tool_call_update').at(-1)).toMatchObject({ status: 'completed', rawOutput: { exit_code: 0, output: expect.stringContaining('from-mcp') } });
    // A server that cannot start fails session/new: nothing is accepted that does not act.
    await expect(agent.connection.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [{ name: 'broken', command: join(ws.dir, 'no-such-binary'), args: [], env: [] }] })).rejects.toThrow(/MCP server 'broken' could not be connected/);
    expect(await agent.close()).toBe(0);
    expect(nonProtocolLines(agent.stdout())).toEqual([]);
  }, 120_000);

  it('a config with several models offers them as a config option; switching keeps the conversation', async () => {
    const server = await startScriptedModelServer({ scenario: [textResponse('On the first model.'), textResponse('On the other model.')] });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-acp-', { 'README.md': '# acp\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    const config = join(ws.dir, 'agent.acl');
    writeFileSync(config, `${scriptedAcl(server).replace('models "claude-test" { tool_call = true }', 'models "claude-test" { tool_call = true }\n  models "claude-other" { tool_call = true }')}${POLICY}`);
    const agent = startAcpAgent(['--config', config], { env: cleanEnv(home.dir), cwd: ws.dir });
    cleanups.push(async () => {
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    });
    await initialize(agent);
    const created = await agent.connection.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
    expect(created.configOptions).toMatchObject([{ id: 'model', type: 'select', category: 'model', currentValue: 'anthropic/claude-test', options: [{ value: 'anthropic/claude-test' }, { value: 'anthropic/claude-other' }] }]);
    const sessionId = created.sessionId;
    expect((await prompt(agent, sessionId, 'hello first')).stopReason).toBe('end_turn');
    const switched = await agent.connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'anthropic/claude-other' });
    expect(switched.configOptions[0]).toMatchObject({ currentValue: 'anthropic/claude-other' });
    expect((await prompt(agent, sessionId, 'hello second')).stopReason).toBe('end_turn');
    const body = server.requests[1]!.body as { model?: string };
    expect(body.model).toBe('claude-other');
    expect(JSON.stringify(body)).toContain('hello first');
    await expect(agent.connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'anthropic/nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(agent.connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'temperature', value: 'hot' })).rejects.toMatchObject({ code: -32602 });
    expect(await agent.close()).toBe(0);
  }, 120_000);

  it('a client that disconnects while asked rejects: nothing runs, the agent exits', async () => {
    const { agent, workspace, sessionId } = await setUp([toolCallResponse('bash', { command: 'touch after-disconnect.txt' }), textResponse('unused')]);
    agent.answer = 'never';
    void prompt(agent, sessionId, 'make a file').catch(() => undefined);
    expect(await eventually(() => agent.permissionRequests.length === 1)).toBe(true);
    expect(await agent.close()).toBe(0);
    expect(existsSync(join(workspace, 'after-disconnect.txt'))).toBe(false);
  }, 120_000);
});
