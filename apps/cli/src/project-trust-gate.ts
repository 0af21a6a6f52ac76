import { readFileSync } from 'node:fs';
import type { Style } from './ansi.js';
import { sanitizeTerminalText } from './ansi.js';
import type { CliIo } from './cli-io.js';
import type { ConfigSource } from './config-discovery.js';
import { LineReader } from './line-reader.js';
import { identifyProjectConfig, isProjectConfigTrusted, trustProjectConfig, untrustedProjectConfigError } from './project-trust.js';

/** Options of {@link ensureTrustedConfig}. */
export interface TrustGateOptions {
  readonly source: ConfigSource;
  readonly workspace: string;
  readonly io: CliIo;
  readonly style: Style;
  /** `--json`: no questions on the terminal; an untrusted project config is refused. */
  readonly json: boolean;
}

/** Most lines of the project config shown with the trust question. */
const MAX_SHOWN_LINES = 40;

/**
 * Lets a run load `<workspace>/.a3s/config.acl` only under the user's explicit trust decision,
 * remembered per real path and content digest. A config the user has not trusted is shown and
 * asked about when a human is at the terminal; otherwise (no TTY, `--json`) the run is refused.
 * `--yes` answers tool confirmations, never this question. Other sources pass through.
 *
 * @throws CodeError CONFIG_ERROR (`details.reason: 'untrusted_project_config'`) when refused.
 */
export async function ensureTrustedConfig(options: TrustGateOptions): Promise<void> {
  const { source, io, style } = options;
  if (source.kind !== 'file' || source.origin !== 'project') return;
  const identity = identifyProjectConfig(source.path);
  if (isProjectConfigTrusted(identity, io.env)) return;
  if (options.json || io.stdin.isTTY !== true) throw untrustedProjectConfigError(identity, options.workspace);
  const lines = readFileSync(identity.path, 'utf8').split('\n');
  const shown = lines.slice(0, MAX_SHOWN_LINES).map((line) => `    ${sanitizeTerminalText(line)}`);
  if (lines.length > MAX_SHOWN_LINES) shown.push(`    … ${lines.length - MAX_SHOWN_LINES} more lines`);
  io.stderr.write(
    `${style.yellow('!')} This workspace has its own config, ${sanitizeTerminalText(identity.path)}:\n${shown.join('\n')}\n` +
      `  A project config can choose the server your API key is sent to and what the agent may do without asking.\n`,
  );
  const reader = new LineReader(io.stdin);
  try {
    for (;;) {
      io.stderr.write(`${style.yellow('?')} ${style.bold('Trust this config')} (remembered until it changes) ${style.bold('[y/N]')} › `);
      const line = await reader.next();
      const answer = line?.trim().toLowerCase() ?? 'n';
      if (answer === 'y' || answer === 'yes') break;
      if (answer === 'n' || answer === 'no' || answer === '') throw untrustedProjectConfigError(identity, options.workspace);
      io.stderr.write('  please answer y or n\n');
    }
  } finally {
    reader.close();
  }
  trustProjectConfig(identity, io.env);
}

/**
 * After loading: the file must still be the one the user trusted (it could change between the
 * decision and the read).
 *
 * @throws CodeError CONFIG_ERROR when the content changed.
 */
export function recheckTrustedConfig(source: ConfigSource, workspace: string, io: CliIo): void {
  if (source.kind !== 'file' || source.origin !== 'project') return;
  const identity = identifyProjectConfig(source.path);
  if (!isProjectConfigTrusted(identity, io.env)) throw untrustedProjectConfigError(identity, workspace);
}
