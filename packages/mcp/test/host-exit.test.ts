// Stdio MCP servers die with the host process, also when it ends by process.exit().
import { execFileSync } from 'node:child_process';
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

describe('stdio server lifetime', () => {
  it('a host that exits without closing takes its MCP server processes with it', async () => {
    const connection = new URL('../src/index.ts', import.meta.url).href;
    const command = fixtureMcpStdioCommand();
    const script = `
      const { McpManager } = await import(${JSON.stringify(connection)});
      const manager = new McpManager();
      const c = await manager.add({ name: 'fx', transport: { type: 'stdio', command: ${JSON.stringify(command.command)}, args: ${JSON.stringify(command.args)} }, env: { MCP_FIXTURE_STAY_ALIVE: '1' } });
      process.stdout.write(String(c.pid));
      process.exit(0);
    `;
    const loader = command.args[1]!;
    const out = execFileSync(process.execPath, ['--conditions=@a3s-lab/source', '--import', loader, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
  });
});
