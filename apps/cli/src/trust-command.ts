import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CodeError } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import { sanitizeTerminalText } from './ansi.js';
import type { CliIo } from './cli-io.js';
import { WORKSPACE_CONFIG } from './config-discovery.js';
import { EXIT_CODES } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import type { TrustCommandOptions } from './parse-args.js';
import { identifyProjectConfig, trustProjectConfig } from './project-trust.js';
import { reportError } from './report-error.js';
import { resolveWorkspace } from './run-command.js';

/**
 * `a3s-code trust`: the user's explicit decision to let runs in a workspace load its
 * `.a3s/config.acl` as it is now (path + SHA-256); editing the file revokes it.
 */
export function trustCommand(options: TrustCommandOptions, io: CliIo, style: Style): ExitCode {
  try {
    const workspace = resolveWorkspace(io, options.workspace);
    const path = join(workspace, WORKSPACE_CONFIG);
    if (!existsSync(path)) throw new CodeError('CONFIG_ERROR', `no project config to trust: ${path} does not exist`, { details: { file: path } });
    const identity = identifyProjectConfig(path);
    trustProjectConfig(identity, io.env);
    io.stdout.write(`trusted ${sanitizeTerminalText(identity.path)} (sha256 ${identity.sha256})\n`);
    return EXIT_CODES.success;
  } catch (error) {
    return reportError(io, false, style, error);
  }
}
