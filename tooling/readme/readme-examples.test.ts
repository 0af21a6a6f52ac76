// Every code block of every README runs, as a user would paste it (issue 28): each program is
// written to a file in this folder (a project that installed every package the READMEs name, so
// imports resolve as in a user's project, to the built `dist`), and run with this Node (which strips
// TypeScript types) in a fresh workspace whose `agent.acl` and API-key variables point at the
// scripted model server. Agent configurations (```hcl) are loaded with Agent.create.
// Needs the build (`npm test` builds first).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
// @ts-expect-error -- a plain .mjs helper without declarations
import { readmeFiles, readmeUnits, root } from './readme-blocks.mjs';

interface Unit {
  readonly readme: string;
  readonly line: number;
  readonly kind: 'program' | 'config';
  readonly language: string;
  readonly code: string;
}

const units: Unit[] = (readmeFiles() as string[]).flatMap((file) => readmeUnits(file) as Unit[]);
const SCRIPTED_ANSWER = 'scripted answer for a README example';

/**
 * Programs are written here: this folder is a project that installed every package the READMEs
 * name (see its package.json), so imports resolve as in a user's project, to the built `dist`.
 */
const projectDir = dirname(fileURLToPath(import.meta.url));

let server: ScriptedModelServer;
let scratch: string;

beforeAll(async () => {
  server = await startScriptedModelServer({ scenario: () => textResponse(SCRIPTED_ANSWER) });
  scratch = mkdtempSync(join(tmpdir(), 'a3s-readme-'));
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A fresh workspace (a small repository with an `agent.acl` for the scripted server) and HOME. */
function workspaceFor(name: string): { dir: string; home: string } {
  const dir = join(scratch, name, 'workspace');
  const home = join(scratch, name, 'home');
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# sample\n');
  writeFileSync(join(dir, 'package.json'), '{ "name": "sample", "private": true, "scripts": { "test": "node -e \\"process.exit(0)\\"" } }\n');
  writeFileSync(join(dir, 'src', 'auth.ts'), 'export function authenticate(token: string): boolean {\n  return token.length > 0;\n}\n');
  writeFileSync(
    join(dir, 'agent.acl'),
    `default_model = "anthropic/claude-test"\nproviders "anthropic" {\n  api_key = env("ANTHROPIC_API_KEY")\n  base_url = "${server.anthropicBaseUrl}"\n  models "claude-test" { tool_call = true }\n}\n`,
  );
  return { dir, home };
}

function runNode(file: string, cwd: string, home: string): Promise<{ status: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    NO_COLOR: '1',
    ANTHROPIC_API_KEY: 'sk-ant-readme-example-0000',
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    OPENAI_API_KEY: 'sk-readme-example-0000',
    OPENAI_BASE_URL: server.openaiBaseUrl,
    // Variables the examples read, as a user would have them set.
    GITHUB_TOKEN: 'ghp_readme_example_0000',
    // No example reaches the network: an `npx` a configuration names fails at once, offline.
    npm_config_offline: 'true',
  };
  // Resolve as a user's project would: not through the workspace's hoisted NODE_PATH.
  delete env['NODE_PATH'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

// Locally, without a build, these are skipped with a message; in CI (`npm test` builds first) a
// missing build fails them instead.
const built = existsSync(join(root as string, 'packages', 'sdk', 'dist', 'index.js')) || process.env['CI'] === 'true';
if (!built) console.warn('README examples skipped: the packages are not built (npm test builds them)');

describe.skipIf(!built)('README examples', () => {
  it('finds the examples of every README', () => {
    expect(units.filter((u) => u.kind === 'program').length).toBeGreaterThanOrEqual(25);
    expect(new Set(units.map((u) => u.readme)).size).toBeGreaterThanOrEqual(12);
  });

  it.concurrent.each(units.map((unit) => [`${unit.readme}:${unit.line} (${unit.language})`, unit] as const))('%s runs', async (name, unit) => {
    const slug = name.replace(/[^A-Za-z0-9]+/g, '-');
    const { dir, home } = workspaceFor(slug);
    const extension = unit.kind === 'config' || ['ts', 'typescript'].includes(unit.language) ? 'mts' : 'mjs';
    // A configuration fragment without a model of its own (an `mcp_servers` block, say) is what
    // a user adds to their agent.acl: it is loaded after the workspace's.
    const config = /^\s*default_model\s*=/m.test(unit.code) ? unit.code : `${readFileSync(join(dir, 'agent.acl'), 'utf8')}${unit.code}`;
    const program =
      unit.kind === 'config'
        ? `import { Agent } from '@a3s-lab/code';\nconst agent = await Agent.create(${JSON.stringify(config)});\nawait agent.close();\nconsole.log('config loaded');\n`
        : unit.code;
    const file = join(projectDir, `.readme-example-${slug}.${extension}`);
    writeFileSync(file, program);
    try {
      const result = await runNode(file, dir, home);
      expect(result.status, `${name} exited ${result.status}:\n${result.output}\n--- program ---\n${program}`).toBe(0);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
