import { parseArgs } from 'node:util';
import { CodeError } from '@a3s-lab/code';
import { parsePermissionMode } from './permission-modes.js';
import type { PermissionMode } from './permission-modes.js';

/** Options of `a3s-code run`. */
export interface RunCommandOptions {
  /** The prompt (all positional words after `run`, joined by spaces). */
  readonly prompt: string;
  /** `--workspace DIR`; default the current directory. */
  readonly workspace?: string;
  /** `--config FILE`; default: discovered (see README). */
  readonly config?: string;
  /** `--model provider/model`; default the config's default model. */
  readonly model?: string;
  /** `--json`: JSONL v1 envelopes on stdout. Default false. */
  readonly json: boolean;
  /** `--yes`: approve every confirmation. Default false. */
  readonly yes: boolean;
  /** `--permission-mode`; default: the config's policy, else `default`. */
  readonly permissionMode?: PermissionMode;
  /** `--max-tool-rounds N`; default the session default (50). */
  readonly maxToolRounds?: number;
  /** `-o FILE` / `--output FILE` / `--output-last-message FILE`: also write the final answer there. */
  readonly output?: string;
  /** `--compact` (with `--json` only): leave out the per-token delta lines. Default false. */
  readonly compact?: boolean;
}

/** Options of `a3s-code demo`. */
export interface DemoCommandOptions {
  /** `--json`: JSONL v1 envelopes on stdout. Default false. */
  readonly json: boolean;
}

/** Options of `a3s-code trust`. */
export interface TrustCommandOptions {
  /** `--workspace DIR`; default the current directory. */
  readonly workspace?: string;
}

/** What the command line asks for. */
export type CliCommand =
  /** `--help`: the top-level usage, or one command's (`trust --help`). */
  | { readonly kind: 'help'; readonly topic?: 'trust' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly options: RunCommandOptions }
  | { readonly kind: 'demo'; readonly options: DemoCommandOptions }
  /** `serve`: its arguments are parsed by serve-command.ts. */
  | { readonly kind: 'serve'; readonly args: readonly string[] }
  /** No command (or only options): the chat; its arguments are parsed by chat/chat-args.ts. */
  | { readonly kind: 'chat'; readonly args: readonly string[] }
  /** `acp`: its arguments are parsed by acp/acp-command.ts. */
  | { readonly kind: 'acp'; readonly args: readonly string[] }
  | { readonly kind: 'trust'; readonly options: TrustCommandOptions };

/** The `trust --help` text. */
export const TRUST_USAGE = `Usage:
  a3s-code trust [--workspace DIR]

Trusts DIR/.a3s/config.acl (default: the current directory's) as it is now, after you reviewed
it: runs in DIR load it from then on. The decision is kept per real path and SHA-256 of the
file's content in ~/.a3s/trusted-projects.json, so any later change asks again. A project
config can name any model server or open the permission policy: trust only one you have read.

Options:
  --workspace DIR   the workspace whose .a3s/config.acl to trust (default: current directory)
`;

/** The `--help` text. */
export const USAGE = `Usage:
  a3s-code [options]                  chat in a workspace on a terminal (--continue, --resume ID)
  a3s-code run "<prompt>" [options]   run one prompt in a workspace
  a3s-code demo [--json]              fix a bug in a bundled sample repo (no API key needed)
  a3s-code serve [options]            HTTP + SSE server with a browser UI (serve --help)
  a3s-code acp [options]              Agent Client Protocol agent on stdio, for editors (acp --help)
  a3s-code trust [--workspace DIR]    trust DIR/.a3s/config.acl as it is now (after reviewing it)
  a3s-code --help | --version

Options of run:
  --workspace DIR            workspace directory (default: current directory)
  --config FILE              agent.acl to use (default: DIR/.a3s/config.acl once trusted, then
                             ~/.a3s/config.acl, then ANTHROPIC_API_KEY or OPENAI_API_KEY + OPENAI_BASE_URL)
  --model provider/model     model to use (default: the config's default_model)
  --permission-mode MODE     default | accept-edits | plan | yolo (default: config, else default)
  --yes, -y                  approve every confirmation without asking
  --max-tool-rounds N        stop after N model turns that request tools (default 50)
  --json                     print one v1 event envelope per line on stdout, nothing else
  --compact                  with --json: leave out the per-token delta lines (text, reasoning,
                             tool input/output deltas); tool, turn and run events stay
  -o, --output FILE          also write the final answer to FILE (alias --output-last-message)

Options of the chat (also --workspace, --config, --model, --permission-mode, --yes):
  --continue, -c             continue the last session of this workspace
  --resume ID, -r ID         continue the saved session ID (/sessions lists them)
  Without a terminal on stdin, the chat falls back to run: the prompt is read from stdin.

Output: progress (header, tool lines, spinner, summary, errors) goes to stderr; stdout gets only
the final answer, so \`a3s-code run "..." > answer.md\` keeps just the answer. Colour and the
spinner are off when stderr is not a terminal, for TERM=dumb, and colour for NO_COLOR.

Stdin: a prompt of "-" is read from stdin. With a prompt argument, a piped stdin is appended to
it as context (\`git diff | a3s-code run "review this"\`); if nothing arrives on stdin within 3s
the run starts without it (use < /dev/null to skip stdin).

Exit codes: 0 success, 1 last tool call failed / run failed, 2 usage or config error,
3 model error, 130 cancelled (Ctrl-C), 143 SIGTERM, 129 SIGHUP.
`;

const usageError = (message: string, details: Record<string, unknown> = {}): CodeError =>
  new CodeError('CONFIG_ERROR', `${message} (see a3s-code --help)`, { details: { usage: true, ...details } });

/** Parses `argv` (without `node` and the script). Throws CONFIG_ERROR (`details.usage`) on bad input. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { kind: 'help' };
  if (command === '--version' || command === '-V') return { kind: 'version' };
  if (command === undefined || command.startsWith('-')) return argv.includes('--help') || argv.includes('-h') ? { kind: 'help' } : { kind: 'chat', args: argv };
  if (command === 'run') return parseRun(rest);
  if (command === 'demo') return rest.includes('--help') || rest.includes('-h') ? { kind: 'help' } : { kind: 'demo', options: parseDemo(rest) };
  if (command === 'serve') return { kind: 'serve', args: rest };
  if (command === 'acp') return { kind: 'acp', args: rest };
  if (command === 'trust') return rest.includes('--help') || rest.includes('-h') ? { kind: 'help', topic: 'trust' } : { kind: 'trust', options: parseTrust(rest) };
  throw usageError(`unknown command '${command}'`, { argument: command });
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

function parse(args: readonly string[], options: OptionSpec): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
}

function parseRun(args: readonly string[]): CliCommand {
  const { values, positionals } = parse(args, {
    workspace: { type: 'string' },
    config: { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    'permission-mode': { type: 'string' },
    'max-tool-rounds': { type: 'string' },
    output: { type: 'string', short: 'o' },
    'output-last-message': { type: 'string' },
    compact: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values['help'] === true) return { kind: 'help' };
  const prompt = positionals.join(' ').trim();
  if (prompt.length === 0) throw usageError('run needs a prompt: a3s-code run "<prompt>"', { argument: 'prompt' });
  const text = (name: string): string | undefined => {
    const value = values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length === 0) throw usageError(`--${name} needs a value`, { argument: `--${name}` });
    return value;
  };
  const model = text('model');
  if (model !== undefined && !/^[^/\s]+\/\S+$/.test(model)) throw usageError(`--model must be 'provider/model'; got '${model}'`, { argument: '--model' });
  const rounds = text('max-tool-rounds');
  let maxToolRounds: number | undefined;
  if (rounds !== undefined) {
    maxToolRounds = Number(rounds);
    if (!/^\d+$/.test(rounds) || !Number.isSafeInteger(maxToolRounds) || maxToolRounds < 1) {
      throw usageError(`--max-tool-rounds must be a positive integer; got '${rounds}'`, { argument: '--max-tool-rounds' });
    }
  }
  const outputFlag = text('output');
  const lastMessage = text('output-last-message');
  const output = outputFlag ?? lastMessage;
  if (outputFlag !== undefined && lastMessage !== undefined) throw usageError('-o/--output and --output-last-message are the same option; give one', { argument: '--output-last-message' });
  if (values['compact'] === true && values['json'] !== true) throw usageError('--compact only applies to --json output', { argument: '--compact' });
  const mode = text('permission-mode');
  const workspace = text('workspace');
  const config = text('config');
  const options: RunCommandOptions = {
    prompt,
    json: values['json'] === true,
    yes: values['yes'] === true,
    ...(workspace === undefined ? {} : { workspace }),
    ...(config === undefined ? {} : { config }),
    ...(model === undefined ? {} : { model }),
    ...(mode === undefined ? {} : { permissionMode: parsePermissionMode(mode) }),
    ...(maxToolRounds === undefined ? {} : { maxToolRounds }),
    ...(output === undefined ? {} : { output }),
    ...(values['compact'] === true ? { compact: true } : {}),
  };
  return { kind: 'run', options };
}

function parseDemo(args: readonly string[]): DemoCommandOptions {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length > 0) throw usageError(`demo takes no arguments; got '${positionals.join(' ')}'`);
  return { json: values['json'] === true };
}

function parseTrust(args: readonly string[]): TrustCommandOptions {
  const { values, positionals } = parse(args, { workspace: { type: 'string' } });
  if (positionals.length > 0) throw usageError(`trust takes no arguments; got '${positionals.join(' ')}'`);
  const workspace = values['workspace'];
  if (workspace === undefined) return {};
  if (typeof workspace !== 'string' || workspace.length === 0) throw usageError('--workspace needs a value', { argument: '--workspace' });
  return { workspace };
}
