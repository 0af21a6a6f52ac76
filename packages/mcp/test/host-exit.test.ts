// Stdio MCP servers die with the host process, also when it ends by process.exit() or is killed
// by SIGTERM, SIGINT or SIGHUP.
import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixtureMcpStdioCommand } from '@a3s-lab/code-testing/mcp';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Node arguments of a host that starts the stay-alive fixture server, prints its pid on a line,
 * then runs `then` (exits, or waits to be killed).
 */
function hostArgs(then: string): string[] {
  const connection = new URL('../src/index.ts', import.meta.url).href;
  const command = fixtureMcpStdioCommand();
  const script = `
    const { McpManager } = await import(${JSON.stringify(connection)});
    const manager = new McpManager();
    const c = await manager.add({ name: 'fx', transport: { type: 'stdio', command: ${JSON.stringify(command.command)}, args: ${JSON.stringify(command.args)} }, env: { MCP_FIXTURE_STAY_ALIVE: '1' } });
    process.stdout.write(String(c.pid) + '\\n');
    ${then}
  `;
  const loader = command.args[1]!;
  return ['--conditions=@a3s-lab/source', '--import', loader, '--input-type=module', '-e', script];
}

describe('stdio server lifetime', () => {
  it('a host that exits without closing takes its MCP server processes with it', async () => {
    const out = execFileSync(process.execPath, hostArgs('process.exit(0);'), { encoding: 'utf8', timeout: 30_000 });
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('a host killed by %s takes its MCP server processes with it, and still dies by the signal', async (signal) => {
    const host = spawn(process.execPath, hostArgs('setInterval(() => undefined, 1000);'), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    host.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => host.once('exit', (_code, by) => resolve(by)));
    await expect.poll(() => out.includes('\n'), { timeout: 30_000 }).toBe(true);
    const pid = Number(out.trim());
    expect(alive(pid)).toBe(true);
    host.kill(signal);
    expect(await exited).toBe(signal);
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
  });
});
