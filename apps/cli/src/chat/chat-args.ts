// The options of the interactive terminal: `a3s-code [options]` with no command.
import { parseArgs } from 'node:util';
import { CodeError } from '@a3s-lab/code';
import { parsePermissionMode } from '../permission-modes.js';
import type { PermissionMode } from '../permission-modes.js';

/** Options of the chat (`a3s-code` with no prompt). */
export interface ChatOptions {
  readonly workspace?: string;
  readonly config?: string;
  readonly model?: string;
  readonly permissionMode?: PermissionMode;
  /** `--yes`: approve every ask. */
  readonly yes: boolean;
  /** `--continue`: the last session of this workspace. */
  readonly continueLast: boolean;
  /** `--resume ID`: that saved session. */
  readonly resume?: string;
}

const usageError = (message: string): CodeError => new CodeError('CONFIG_ERROR', `${message} (see a3s-code --help)`, { details: { usage: true } });

/** Parses `a3s-code [options]`; CONFIG_ERROR (usage) on bad input. */
export function parseChatArgs(args: readonly string[]): ChatOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        workspace: { type: 'string' },
        config: { type: 'string' },
        model: { type: 'string' },
        'permission-mode': { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  if (values.model !== undefined && !/^[^/\s]+\/\S+$/.test(values.model)) throw usageError(`--model must be 'provider/model'; got '${values.model}'`);
  if (values.continue === true && values.resume !== undefined) throw usageError('--continue and --resume ID both choose the session; give one');
  for (const name of ['workspace', 'config', 'resume'] as const) {
    if (values[name] === '') throw usageError(`--${name} needs a value`);
  }
  return {
    yes: values.yes === true,
    continueLast: values.continue === true,
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(values['permission-mode'] === undefined ? {} : { permissionMode: parsePermissionMode(values['permission-mode']) }),
    ...(values.resume === undefined ? {} : { resume: values.resume }),
  };
}
