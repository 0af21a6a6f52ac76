import { cpSync, existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CodeError } from '@a3s-lab/code';
import type { Agent } from '@a3s-lab/code';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { FLEET_ROLES, startFleetServer, startServer } from '@a3s-lab/server';
import type { FleetRole, RunningFleetServer, RunningServer } from '@a3s-lab/server';
import type { Style } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { discoverConfig, noConfigurationError } from './config-discovery.js';
import { ensureTrustedConfig, recheckTrustedConfig } from './project-trust-gate.js';
import { SCRIPTED_DEMO_MODEL, demoRepoPath } from './demo-command.js';
import { createDemoScenario } from './demo-scenario.js';
import { EXIT_CODES } from './exit-codes.js';
import { reportError } from './report-error.js';
import { createAgentFrom } from './run-command.js';

/** Default port of `a3s-code serve`. */
export const DEFAULT_SERVE_PORT = 7420;

/** Options of `a3s-code serve`. */
export interface ServeCommandOptions {
  /** `--root DIR` (repeatable): directories session workspaces must lie inside. Default the current directory. */
  readonly roots: readonly string[];
  /** `--config FILE`; default discovered as for `run` (in the first root). */
  readonly config?: string;
  /** `--host ADDR`; default 127.0.0.1 (loopback). */
  readonly host?: string;
  /** `--port N`; default {@link DEFAULT_SERVE_PORT}; 0 picks a free port. */
  readonly port: number;
  /** `--state-dir DIR`: token, sessions and leases; default ~/.a3s/server (a fresh temp dir with --demo). */
  readonly stateDir?: string;
  /** `--allowed-host NAME` (repeatable): extra Host values (a reverse proxy's name). */
  readonly allowedHosts: readonly string[];
  /** `--allowed-origin URL` (repeatable): extra Origin values. */
  readonly allowedOrigins: readonly string[];
  /** `--demo`: the bundled scripted model and a copy of the sample repo as the only root. */
  readonly demo: boolean;
  /** `--postgres URL`: run stateless over a fleet in this PostgreSQL database (sessions and runs there, no file or S3 leases). */
  readonly postgres?: string;
  /** `--role api|worker|all` (with --postgres; default all): serve the API, execute runs, or both. */
  readonly role?: FleetRole;
}

/** `a3s-code serve --help`. */
export const SERVE_USAGE = `Usage:
  a3s-code serve [options]      HTTP + SSE server with a browser UI (see apps/server/README.md)

Options:
  --root DIR              a directory session workspaces must lie inside (repeatable; default: .)
  --config FILE           agent.acl (default: discovered as for run, in the first root)
  --host ADDR             bind address (default 127.0.0.1: loopback only)
  --port N                port (default ${DEFAULT_SERVE_PORT}; 0 picks a free one)
  --state-dir DIR         token file, sessions/ and leases/ (default ~/.a3s/server); share it
                          between processes serving one URL
  --allowed-host NAME     extra Host header value accepted, e.g. a reverse proxy's (repeatable)
  --allowed-origin URL    extra Origin accepted (repeatable)
  --demo                  the bundled scripted model on a copy of the sample repo (no API key)
  --postgres URL          stateless over a fleet in this PostgreSQL database: sessions and runs
                          live there, any API process serves any session, workers run the runs
  --role ROLE             fleet role: api (HTTP only), worker (runs only, no HTTP) or all
                          (default); without --postgres, the config's postgres { url }

The bearer token comes from A3S_SERVER_TOKEN, else <state-dir>/token; on first start it is
generated there and printed once. Ctrl-C saves every live session and stops.
`;

const usageError = (message: string): CodeError => new CodeError('CONFIG_ERROR', `${message} (see a3s-code serve --help)`, { details: { usage: true } });

/** Parses the arguments after `serve`; `help` when --help was asked. Throws CONFIG_ERROR (`details.usage`). */
export function parseServeArgs(args: readonly string[]): ServeCommandOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        root: { type: 'string', multiple: true },
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'state-dir': { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'allowed-origin': { type: 'string', multiple: true },
        demo: { type: 'boolean' },
        postgres: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values;
  if (v.help === true) return 'help';
  const port = v.port === undefined ? DEFAULT_SERVE_PORT : Number(v.port);
  if (v.port !== undefined && (!/^\d{1,5}$/.test(v.port) || port > 65_535)) throw usageError(`--port must be an integer in 0..65535; got '${v.port}'`);
  if (v.demo === true && (v.root !== undefined || v.config !== undefined)) throw usageError('--demo picks its own root and model: drop --root and --config');
  const role = v.role === undefined ? undefined : FLEET_ROLES.find((r) => r === v.role);
  if (v.role !== undefined && role === undefined) throw usageError(`--role must be one of ${FLEET_ROLES.join(', ')}; got '${v.role}'`);
  if (v.postgres !== undefined && !/^postgres(ql)?:\/\//.test(v.postgres)) throw usageError('--postgres must be a postgres:// or postgresql:// URL');
  return {
    roots: v.root ?? [],
    port,
    demo: v.demo === true,
    allowedHosts: v['allowed-host'] ?? [],
    allowedOrigins: v['allowed-origin'] ?? [],
    ...(v.config === undefined ? {} : { config: v.config }),
    ...(v.host === undefined ? {} : { host: v.host }),
    ...(v['state-dir'] === undefined ? {} : { stateDir: v['state-dir'] }),
    ...(v.postgres === undefined ? {} : { postgres: v.postgres }),
    ...(role === undefined ? {} : { role }),
  };
}

/** `a3s-code serve`: starts the server and waits for Ctrl-C (or SIGTERM). Returns the exit code. */
export async function serveCommand(options: ServeCommandOptions, io: CliIo, style: Style): Promise<number> {
  let model: ScriptedModelServer | undefined;
  let agent: Agent | undefined;
  let server: RunningServer | RunningFleetServer | undefined;
  try {
    let roots = options.roots.map((root) => resolve(io.cwd, root));
    let stateDir = options.stateDir === undefined ? undefined : resolve(io.cwd, options.stateDir);
    if (options.demo) {
      const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-web-demo-')));
      cpSync(demoRepoPath(), join(workspace, 'demo-repo'), { recursive: true });
      // The repo itself is the only root (the UI offers it); the state directory sits beside it.
      roots = [join(workspace, 'demo-repo')];
      stateDir ??= join(workspace, '.a3s-server');
      model = await startScriptedModelServer({ scenario: createDemoScenario({ latencyMs: 300, chunkDelayMs: 30 }) });
      const [provider, id] = SCRIPTED_DEMO_MODEL.split('/') as [string, string];
      const acl = `default_model = "${SCRIPTED_DEMO_MODEL}"\nproviders "${provider}" {\n  kind = "anthropic"\n  api_key = "scripted-demo-key"\n  base_url = "${model.anthropicBaseUrl}"\n  models "${id}" { tool_call = true }\n}\n`;
      agent = await createAgentFrom({ kind: 'env', acl, description: 'bundled scripted model', model: SCRIPTED_DEMO_MODEL }, io);
    } else {
      if (roots.length === 0) roots = [io.cwd];
      for (const root of roots) if (!existsSync(root)) throw new CodeError('CONFIG_ERROR', `--root is not a directory: ${root}`, { details: { argument: '--root', path: root } });
      const first = roots[0] ?? io.cwd;
      const source = discoverConfig({ workspace: first, cwd: io.cwd, env: io.env, ...(options.config === undefined ? {} : { explicit: options.config }) });
      if (source === null) {
        throw noConfigurationError({ workspace: first, env: io.env }, 'try a3s-code serve --demo');
      }
      // A server never asks: a root's own config is used only once the user trusted it.
      await ensureTrustedConfig({ source, workspace: first, io, style, json: true });
      agent = await createAgentFrom(source, io);
      recheckTrustedConfig(source, first, io);
    }
    const common = {
      agent,
      workspaceRoots: roots,
      port: options.port,
      env: io.env,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      ...(stateDir === undefined ? {} : { stateDir }),
      ...(options.host === undefined ? {} : { host: options.host }),
    };
    // --role without --postgres: the database of the config's `postgres { url }`.
    const postgres = options.postgres ?? (options.role === undefined ? undefined : agent.config.postgres?.url);
    if (options.role !== undefined && postgres === undefined) throw usageError('--role needs --postgres URL or a config with postgres { url }');
    if (postgres !== undefined) {
      const fleetServer = await startFleetServer({ ...common, postgres, role: options.role ?? 'all' });
      server = fleetServer;
      const role = options.role ?? 'all';
      io.stdout.write(`${style.bold('a3s-code serve')} fleet ${role} process${role === 'api' ? '' : `, worker id ${fleetServer.fleet.workerId}`}\n`);
      if (fleetServer.url !== null && fleetServer.token !== null) {
        io.stdout.write(`listening on ${style.cyan(fleetServer.url)}\nworkspace roots: ${roots.join(', ')}\n`);
        if (fleetServer.token.source === 'generated') io.stdout.write(`token (shown once, kept in the state directory): ${fleetServer.token.token}\nopen: ${fleetServer.url}/#token=${fleetServer.token.token}\n`);
      } else {
        io.stdout.write('executing runs (no HTTP)\n');
      }
    } else {
      const single = await startServer(common);
      server = single;
      printListening(single, roots, io, style);
    }
    await waitForStop(io);
    io.stderr.write('stopping: saving live sessions\n');
    return EXIT_CODES.success;
  } catch (error) {
    return reportError(io, false, style, error);
  } finally {
    await server?.close();
    await agent?.close();
    await model?.close();
  }
}

/** What a single-host server prints once it listens: its URLs, roots and where the token came from. */
function printListening(server: RunningServer, roots: readonly string[], io: CliIo, style: Style): void {
  io.stdout.write(`${style.bold('a3s-code serve')} listening on ${style.cyan(server.url)}\n`);
  // Bound to every interface: the URLs other machines use (the Host check accepts exactly these).
  const { url: shown, urls } = server;
  const others = urls.filter((url) => url !== shown);
  if (others.length > 0) io.stdout.write(`also reachable at: ${others.join(', ')}\n`);
  io.stdout.write(`workspace roots: ${roots.join(', ')}\n`);
  if (server.token.source === 'generated') {
    io.stdout.write(`token (shown once, kept in the state directory): ${server.token.token}\n`);
    io.stdout.write(`open: ${server.url}/#token=${server.token.token}\n`);
  } else {
    io.stdout.write(`token: from ${server.token.source === 'env' ? 'A3S_SERVER_TOKEN' : server.token.source === 'file' ? 'the token file in the state directory' : 'the caller'}\n`);
  }
}

/** Resolves on Ctrl-C (through `io`) or SIGTERM, unsubscribing both. */
function waitForStop(io: CliIo): Promise<void> {
  return new Promise<void>((done) => {
    const stop = (): void => {
      unsubscribe?.();
      process.off('SIGTERM', stop);
      done();
    };
    const unsubscribe = io.onInterrupt?.(stop);
    process.once('SIGTERM', stop);
  });
}
