import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeError } from '@a3s-lab/code-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { AclWarning } from './acl-document.js';
import { isInlineAcl, loadAgentConfig } from './load-agent-config.js';

/** The example of REFERENCE.md, verbatim. */
const REFERENCE_EXAMPLE = `default_model = "anthropic/claude-sonnet-4-20250514"
max_tool_rounds = 50
providers "anthropic" {
  api_key = env("ANTHROPIC_API_KEY")
  models "claude-sonnet-4-20250514" { tool_call = true  limit = { context = 200000  output = 8192 } }
}
providers "openai" { api_key = env("OPENAI_API_KEY")  base_url = "http://127.0.0.1:8000/v1"  models "gpt-4o" {} }
storage_backend = "file"          # memory | file
sessions_dir = ".a3s/sessions"
agent_dirs = [".a3s/agents"]
`;

const ENV = { ANTHROPIC_API_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-oai' };
const MINIMAL = 'default_model = "openai/gpt-4o"\nproviders "openai" { models "gpt-4o" {} }\n';

const failure = (run: () => unknown): CodeError => {
  try {
    run();
  } catch (error) {
    expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    return error as CodeError;
  }
  throw new Error('expected a CONFIG_ERROR');
};

const temp = mkdtempSync(join(tmpdir(), 'a3s-config-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('loadAgentConfig: the REFERENCE.md example', () => {
  it('parses to the expected typed config', () => {
    const config = loadAgentConfig(REFERENCE_EXAMPLE, { env: ENV, cwd: '/work/project' });
    expect(config).toEqual({
      defaultModel: 'anthropic/claude-sonnet-4-20250514',
      maxToolRounds: 50,
      providers: [
        {
          name: 'anthropic',
          kind: 'anthropic',
          apiKey: 'sk-ant',
          models: [{ id: 'claude-sonnet-4-20250514', toolCall: true, limit: { context: 200000, output: 8192 } }],
        },
        { name: 'openai', kind: 'openai', apiKey: 'sk-oai', baseUrl: 'http://127.0.0.1:8000/v1', models: [{ id: 'gpt-4o' }] },
      ],
      storageBackend: 'file',
      sessionsDir: '/work/project/.a3s/sessions',
      agentDirs: ['/work/project/.a3s/agents'],
      skillDirs: [],
      mcpServers: [],
      extensions: {},
    });
  });

  it('leaves apiKey out and warns when env() finds nothing', () => {
    const warnings: AclWarning[] = [];
    const config = loadAgentConfig(REFERENCE_EXAMPLE, { env: { OPENAI_API_KEY: 'k' }, cwd: '/p', onWarning: (w) => warnings.push(w) });
    expect(config.providers[0]).not.toHaveProperty('apiKey');
    expect(warnings).toEqual([expect.objectContaining({ kind: 'missing_env', name: 'ANTHROPIC_API_KEY', line: 4, column: 13 })]);
  });
});

describe('loadAgentConfig: keys and aliases', () => {
  it('accepts apiKey/baseUrl and camelCase for every key', () => {
    const config = loadAgentConfig(
      'defaultModel = "local/llama"\nmaxToolRounds = 7\nproviders "local" { apiKey = "k"  baseUrl = "http://localhost:11434/v1"  models "llama" { toolCall = false } }',
      { env: {}, cwd: '/p' },
    );
    expect(config.maxToolRounds).toBe(7);
    expect(config.providers[0]).toEqual({ name: 'local', kind: 'openai', apiKey: 'k', baseUrl: 'http://localhost:11434/v1', models: [{ id: 'llama', toolCall: false }] });
  });

  it('rejects both spellings of one key, naming both', () => {
    const error = failure(() => loadAgentConfig('default_model = "openai/m"\nproviders "openai" {\n  api_key = "a"\n  apiKey = "b"\n  models "m" {}\n}', { env: {} }));
    expect(error.message).toMatch(/line 4, column 3: 'apiKey' and 'api_key' \(line 3\) both set 'apiKey'/);
  });

  it('maps session options to camelCase, nested keys included', () => {
    const config = loadAgentConfig(
      `${MINIMAL}tool_timeout_ms = 120000
llm_api_timeout_ms = 60000
auto_compact = true
auto_compact_threshold = 0.75
max_context_tokens = 128000
auto_delegation = { enabled = true, max_tasks = 4 }
permission_policy { ask = ["bash*"]  default_decision = "allow" }
confirmation_policy { enabled = true  default_timeout_ms = 30000  timeout_action = "reject"  yolo_lanes = ["query"] }
artifact_store_limits = { max_artifacts = 64, max_bytes = 8388608 }
worker_agents "review-cow" { description = "Adversarial review"  kind = "reviewer"  confirmation_inheritance = "deny_on_ask" }
`,
      { env: {}, cwd: '/p' },
    );
    expect(config).toMatchObject({
      toolTimeoutMs: 120000,
      llmApiTimeoutMs: 60000,
      autoCompact: true,
      autoCompactThreshold: 0.75,
      maxContextTokens: 128000,
      autoDelegation: { enabled: true, maxTasks: 4 },
      permissionPolicy: { ask: ['bash*'], defaultDecision: 'allow' },
      confirmationPolicy: { enabled: true, defaultTimeoutMs: 30000, timeoutAction: 'reject', yoloLanes: ['query'] },
      artifactStoreLimits: { maxArtifacts: 64, maxBytes: 8388608 },
      workerAgents: [{ name: 'review-cow', description: 'Adversarial review', kind: 'reviewer', confirmationInheritance: 'deny_on_ask' }],
    });
  });

  it('maps the legacy planning boolean to planningMode unless planningMode is set', () => {
    expect(loadAgentConfig(`${MINIMAL}planning = true`, { env: {} }).planningMode).toBe('enabled');
    expect(loadAgentConfig(`${MINIMAL}planning = false`, { env: {} }).planningMode).toBe('disabled');
    const both = loadAgentConfig(`${MINIMAL}planning = true\nplanning_mode = "auto"`, { env: {} });
    expect(both.planningMode).toBe('auto');
    expect(both).not.toHaveProperty('planning');
    expect(failure(() => loadAgentConfig(`${MINIMAL}planning = "yes"`, { env: {} })).message).toMatch(/line 3, column 1: planning must be true or false/);
  });

  it('keeps unknown top-level keys in extensions with a warning, verbatim maps untouched', () => {
    const warnings: AclWarning[] = [];
    const config = loadAgentConfig(`${MINIMAL}queue {\n  control_max_concurrency = 2\n  retry_policy { max_retries = 3 }\n}\nsearch { engine "google" { weight = 1.5 } }\nmcp_env = { env = { GITHUB_TOKEN = "t", lower_case = "x" } }`, {
      env: {},
      onWarning: (w) => warnings.push(w),
    });
    expect(config.extensions).toEqual({
      queue: { controlMaxConcurrency: 2, retryPolicy: { maxRetries: 3 } },
      search: { engine: { google: { weight: 1.5 } } },
      mcpEnv: { env: { GITHUB_TOKEN: 't', lower_case: 'x' } },
    });
    expect(warnings.map((w) => [w.kind, w.name, w.line])).toEqual([
      ['unknown_key', 'queue', 3],
      ['unknown_key', 'search', 7],
      ['unknown_key', 'mcpEnv', 8],
    ]);
  });

  it('applies defaults', () => {
    const config = loadAgentConfig(MINIMAL, { env: {}, cwd: '/base' });
    expect(config).toMatchObject({ storageBackend: 'memory', sessionsDir: '/base/.a3s/sessions', agentDirs: [], skillDirs: [] });
    expect(config).not.toHaveProperty('configFile');
  });

  it('accepts the list form of providers and models', () => {
    const config = loadAgentConfig('default_model = "openai/m"\nproviders = [{ name = "openai", models = [{ id = "m", tool_call = true }] }]', { env: {} });
    expect(config.providers).toEqual([{ name: 'openai', kind: 'openai', models: [{ id: 'm', toolCall: true }] }]);
  });
});

describe('loadAgentConfig: providers', () => {
  it('takes the kind from kind =, else the name, else base_url', () => {
    const config = loadAgentConfig(
      'default_model = "proxy/claude"\nproviders "proxy" { kind = "anthropic"  base_url = "https://proxy.example/v1"  models "claude" {} }\nproviders "vllm" { base_url = "http://gpu:8000/v1" }',
      { env: {} },
    );
    expect(config.providers.map((p) => [p.name, p.kind])).toEqual([
      ['proxy', 'anthropic'],
      ['vllm', 'openai'],
    ]);
    expect(config.providers[1]?.models).toEqual([]);
  });

  it('rejects a provider of unknown kind, naming it and its line', () => {
    const error = failure(() => loadAgentConfig('default_model = "mystery/m"\n\nproviders "mystery" { models "m" {} }', { env: {} }));
    expect(error.message).toMatch(/^line 3, column 1: provider 'mystery' has no known kind/);
  });

  it('rejects duplicate providers and models', () => {
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders "openai" { models "m" {} }\nproviders "openai" {}', { env: {} })).message).toMatch(
      /line 3, column 1: providers "openai" is already defined at line 2/,
    );
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders "openai" {\n models "m" {}\n models "m" {} }', { env: {} })).message).toMatch(/line 4, column 2: models "m" is already defined/);
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders = [{ name = "openai" }, { name = "openai" }]', { env: {} })).message).toMatch(/provider 'openai' is declared twice/);
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders = [{ name = "openai", models = [{ id = "m" }, { id = "m" }] }]', { env: {} })).message).toMatch(/declares model 'm' twice/);
  });

  it('rejects blocks without exactly one label and labels repeated as attributes', () => {
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders { }', { env: {} })).message).toMatch(/line 2, column 1: block 'providers' needs exactly one label/);
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders "openai" { models "a" "b" {} }', { env: {} })).message).toMatch(/block 'models' needs exactly one label/);
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders "openai" { name = "x" }', { env: {} })).message).toMatch(/sets 'name' twice/);
  });

  it('rejects a default model that names an unknown provider or model, listing the known ones', () => {
    const provider = failure(() => loadAgentConfig(REFERENCE_EXAMPLE.replace('anthropic/claude', 'gemini/claude'), { env: ENV }));
    expect(provider.message).toMatch(/default_model: unknown provider 'gemini'.*anthropic, openai/);
    expect(provider.details).toMatchObject({ provider: 'gemini', knownProviders: ['anthropic', 'openai'], line: 1, column: 1 });
    const model = failure(() => loadAgentConfig(REFERENCE_EXAMPLE.replace('"anthropic/claude-sonnet-4-20250514"', '"openai/gpt-5"'), { env: ENV }));
    expect(model.message).toMatch(/unknown model 'gpt-5' for provider 'openai'; declared models: gpt-4o/);
  });
});

describe('loadAgentConfig: schema violations', () => {
  it('lists every violation with its position', () => {
    const error = failure(() =>
      loadAgentConfig('default_model = "openai/m"\nmax_tool_rounds = 0\nstorage_backend = "redis"\nproviders "openai" {\n  models "m" { tool_call = "yes"  limit = { context = 1.5 } }\n}', { env: {} }),
    );
    expect(error.details['issues']).toEqual(
      expect.arrayContaining([
        { path: '/storageBackend', message: 'must be one of "memory", "file", "s3", "postgres"', line: 3, column: 1 },
        { path: '/maxToolRounds', message: 'must be >= 1', line: 2, column: 1 },
        { path: '/providers/0/models/0/toolCall', message: 'must be boolean', line: 5, column: 16 },
        { path: '/providers/0/models/0/limit/context', message: 'must be integer', line: 5, column: 35 },
      ]),
    );
    expect((error.details['issues'] as unknown[]).length).toBe(4);
    expect(error.message).toMatch(/^invalid agent config: /);
    expect(error.message).toMatch(/line 5, column 16: providers\/0\/models\/0\/toolCall must be boolean/);
  });

  it('reports missing required keys', () => {
    const error = failure(() => loadAgentConfig('max_tool_rounds = 3', { env: {} }));
    expect(error.details['issues']).toEqual([
      { path: '/defaultModel', message: 'is required' },
      { path: '/providers', message: 'is required' },
    ]);
    expect(failure(() => loadAgentConfig('', { env: {} })).message).toMatch(/defaultModel is required/);
  });

  it('rejects unknown keys inside known objects and malformed values', () => {
    expect(failure(() => loadAgentConfig(`${MINIMAL}permission_policy { alow = ["read"] }`, { env: {} })).message).toMatch(/line 3, column 1: permissionPolicy unknown key 'alow'/);
    expect(failure(() => loadAgentConfig('default_model = "no-slash"\nproviders "openai" {}', { env: {} })).message).toMatch(/defaultModel must match pattern/);
    expect(failure(() => loadAgentConfig('default_model = "openai/m"\nproviders "openai" { base_url = "ftp://x"  models "m" {} }', { env: {} })).message).toMatch(/baseUrl must match pattern/);
  });
});

describe('loadAgentConfig: files', () => {
  it('reads a path, resolving relative paths against the file directory', () => {
    const dir = join(temp, 'project');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'agent.acl'), REFERENCE_EXAMPLE);
    const config = loadAgentConfig('project/agent.acl', { env: ENV, cwd: temp });
    expect(config.configFile).toBe(join(dir, 'agent.acl'));
    expect(config.sessionsDir).toBe(join(dir, '.a3s/sessions'));
    expect(config.agentDirs).toEqual([join(dir, '.a3s/agents')]);
    expect(loadAgentConfig(join(dir, 'agent.acl'), { env: ENV }).configFile).toBe(join(dir, 'agent.acl'));
  });

  it('names the file in syntax errors and warnings', () => {
    const file = join(temp, 'broken.acl');
    writeFileSync(file, 'default_model = "openai/m"\nproviders "openai" {\n  api_key = "unterminated\n}\n');
    const error = failure(() => loadAgentConfig(file, { env: {} }));
    expect(error.message).toBe(`${file}:3:13: unterminated string (a quoted string ends on the line it starts; use a heredoc for multi-line text)`);
    expect(error.details).toEqual({ line: 3, column: 13, file });
  });

  it('names a missing file and a directory', () => {
    const missing = failure(() => loadAgentConfig('nope.acl', { cwd: temp }));
    expect(missing.message).toBe(`config file not found: ${join(temp, 'nope.acl')}`);
    expect(missing.details).toEqual({ file: join(temp, 'nope.acl'), hostCode: 'ENOENT' });
    expect(failure(() => loadAgentConfig(temp)).message).toBe(`config path is a directory, not an ACL file: ${temp}`);
  });

  it('tells inline text from paths', () => {
    expect(isInlineAcl('agent.acl')).toBe(false);
    expect(isInlineAcl('./conf/agent.acl')).toBe(false);
    expect(isInlineAcl('a = 1')).toBe(true);
    expect(isInlineAcl('x {}')).toBe(true);
    expect(isInlineAcl('# c\n')).toBe(true);
    expect(isInlineAcl('')).toBe(true);
  });

  it('reads mcp_servers blocks (stdio and streamable-http), keeping env and header names verbatim', () => {
    const config = loadAgentConfig(
      `${MINIMAL}
mcp_servers "github" {
  transport = { type = "stdio"  command = "npx"  args = ["-y", "@modelcontextprotocol/server-github"]  cwd = "tools" }
  env = { GITHUB_TOKEN = env("GITHUB_TOKEN") }
  timeout_ms = 30000
}
mcp_servers "docs" {
  transport = { type = "streamable-http"  url = "https://mcp.example.com/mcp"  headers = { Authorization = "Bearer t", "X-Api_Key" = "k" } }
}`,
      { env: { GITHUB_TOKEN: 'ghp_x' }, cwd: '/base' },
    );
    expect(config.mcpServers).toEqual([
      { name: 'github', transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], cwd: '/base/tools' }, env: { GITHUB_TOKEN: 'ghp_x' }, timeoutMs: 30000 },
      { name: 'docs', transport: { type: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t', 'X-Api_Key': 'k' } } },
    ]);
  });

  it('rejects an mcp_servers block with an unknown transport type or key, naming the line', () => {
    const badType = failure(() => loadAgentConfig(`${MINIMAL}\nmcp_servers "x" {\n  transport = { type = "websocket"  url = "ws://h" }\n}`, { env: {} }));
    expect(badType.code).toBe('CONFIG_ERROR');
    expect(badType.message).toContain('transport');
    const unknownKey = failure(() => loadAgentConfig(`${MINIMAL}\nmcp_servers "x" {\n  transport = { type = "stdio"  command = "a" }\n  oauth = true\n}`, { env: {} }));
    expect(unknownKey.code).toBe('CONFIG_ERROR');
    expect(unknownKey.message).toContain('oauth');
  });
});

describe('loadAgentConfig: s3 storage', () => {
  it('reads storage_backend = "s3" with its s3 block, credentials from env()', () => {
    const config = loadAgentConfig(
      `${MINIMAL}storage_backend = "s3"
s3 {
  region = "us-east-1"
  endpoint = "http://127.0.0.1:9000"
  access_key_id = env("S3_KEY_ID")
  secret_access_key = env("S3_SECRET")
  force_path_style = true
  bucket = "sessions"
  prefix = "a3s/prod"
}`,
      { env: { S3_KEY_ID: 'id', S3_SECRET: 'secret' } },
    );
    expect(config.storageBackend).toBe('s3');
    expect(config.s3).toEqual({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true, bucket: 'sessions', prefix: 'a3s/prod' });
  });

  it('refuses storage_backend = "s3" without a bucket, and unknown s3 keys', () => {
    expect(failure(() => loadAgentConfig(`${MINIMAL}storage_backend = "s3"\ns3 { region = "us-east-1" }`)).message).toMatch(/needs an s3 \{/);
    expect(failure(() => loadAgentConfig(`${MINIMAL}storage_backend = "s3"`)).message).toMatch(/needs an s3 \{/);
    expect(failure(() => loadAgentConfig(`${MINIMAL}s3 { region = "us-east-1"  bukket = "x" }`)).message).toMatch(/bukket/);
  });
});

describe('loadAgentConfig: postgres storage', () => {
  it('reads storage_backend = "postgres" with its postgres block, the URL from env()', () => {
    const config = loadAgentConfig(`${MINIMAL}storage_backend = "postgres"\npostgres { url = env("DATABASE_URL") }`, { env: { DATABASE_URL: 'postgresql://app:pw@db:5432/a3s' } });
    expect(config.storageBackend).toBe('postgres');
    expect(config.postgres).toEqual({ url: 'postgresql://app:pw@db:5432/a3s' });
  });

  it('refuses storage_backend = "postgres" without a url, a URL of another scheme, and unknown keys', () => {
    expect(failure(() => loadAgentConfig(`${MINIMAL}storage_backend = "postgres"`)).message).toMatch(/needs a postgres \{ url/);
    expect(failure(() => loadAgentConfig(`${MINIMAL}storage_backend = "postgres"\npostgres { }`)).message).toMatch(/url/);
    expect(failure(() => loadAgentConfig(`${MINIMAL}postgres { url = "mysql://db/x" }`)).message).toMatch(/url/);
    expect(failure(() => loadAgentConfig(`${MINIMAL}postgres { url = "postgres://db/x"  pool_size = 3 }`)).message).toMatch(/poolSize|pool_size/);
  });
});

describe('loadAgentConfig: web tools', () => {
  it('reads web_fetch and web_search blocks', () => {
    const config = loadAgentConfig(
      `${MINIMAL}web_fetch { allow_hosts = ["127.0.0.1", "docs.internal:8443"]  timeout_ms = 5000 }
web_search {
  default_engines = ["duckduckgo", "brave"]
  engines "duckduckgo" {}
  engines "brave" { api_key = env("BRAVE_API_KEY")  base_url = "http://127.0.0.1:9/brave" }
}`,
      { env: { BRAVE_API_KEY: 'bk' } },
    );
    expect(config.webFetch).toEqual({ allowHosts: ['127.0.0.1', 'docs.internal:8443'], timeoutMs: 5000 });
    expect(config.webSearch).toEqual({ defaultEngines: ['duckduckgo', 'brave'], engines: { duckduckgo: {}, brave: { apiKey: 'bk', baseUrl: 'http://127.0.0.1:9/brave' } } });
    expect(config.extensions).toEqual({});
  });

  it('rejects unknown keys and kinds in the web blocks', () => {
    expect(failure(() => loadAgentConfig(`${MINIMAL}web_fetch { allow_host = ["x"] }`)).message).toMatch(/allowHost/);
    expect(failure(() => loadAgentConfig(`${MINIMAL}web_search { engines "g" { kind = "google" } }`)).message).toMatch(/kind/);
  });
});
