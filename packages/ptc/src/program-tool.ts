import { defineTool } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolContext, ToolOutput, ToolParametersSchema } from '@a3s-lab/code-core';
import { programError } from './program-error-code.js';
import type { ProgramError } from './program-error-code.js';
import { renderProgramOutcome } from './program-output.js';
import {
  MAX_OUTPUT_BYTES_CEILING,
  MAX_PROGRAM_TIMEOUT_MS,
  MAX_SOURCE_BYTES,
  MAX_TOOL_CALLS_CEILING,
  ProgramLimits,
  resolveProgramLimits,
} from './program-limits.js';
import type { ProgramRunLimits } from './program-limits.js';
import { runProgram } from './run-program.js';
import { NEVER_CALLABLE_FROM_PROGRAM } from './vm-bounds.js';
import { utf8ByteLength } from '@a3s-lab/code-core/util';

/** Options of {@link createProgramTool}. */
export interface ProgramToolOptions {
  /** Per-run limits used when a call gives none. Default {@link ProgramLimits}. */
  readonly defaultLimits?: Partial<ProgramRunLimits>;
}

/** The JSON Schema of `program`'s arguments: what the model sees and the kernel validates. */
const PROGRAM_PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['script'] },
    language: { type: 'string', enum: ['javascript'] },
    source: { type: 'string', description: `Inline module source (max ${MAX_SOURCE_BYTES} bytes), or instead:` },
    path: { type: 'string', description: 'Workspace .js/.mjs file.' },
    inputs: { description: 'JSON value passed as inputs.' },
    allowed_tools: {
      type: 'array',
      items: { type: 'string' },
      maxItems: 256,
      description: 'Tools ctx may call. Default: all but program, dynamic_workflow, parallel_task.',
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      description: `Defaults: ${ProgramLimits.timeoutMs} ms, ${ProgramLimits.maxToolCalls} calls, ${ProgramLimits.maxOutputBytes} bytes.`,
      properties: {
        timeoutMs: { type: 'integer', minimum: 1, maximum: MAX_PROGRAM_TIMEOUT_MS },
        maxToolCalls: { type: 'integer', minimum: 1, maximum: MAX_TOOL_CALLS_CEILING },
        maxOutputBytes: { type: 'integer', minimum: 1, maximum: MAX_OUTPUT_BYTES_CEILING },
      },
    },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of the `program` tool, as the model (or `session.program`) sends them; read from its schema. */
export type ProgramToolArgs = FromJsonSchema<typeof PROGRAM_PARAMETERS>;

const DESCRIPTION = [
  'Run a sandboxed JavaScript module that calls tools itself instead of one model turn per call: `export default async function run(ctx, inputs) {...}`.',
  'ctx.readFile(path, {offset, limit}?) -> text, grep(pattern, opts?) -> text, glob(pattern, opts?) -> string[], ls(path?) -> text,',
  'bash(command, opts?) -> output (these throw on failure); read(path|args), git(command|args), tool(name, args) -> {output, exitCode, metadata}.',
  'No imports, I/O or timers. Return a small summary, not raw output.',
].join(' ');

/**
 * Creates the `program` tool: programmatic tool calling in a QuickJS sandbox. Every `ctx` call
 * is a governed nested call through `context.runtime` (permission, confirmation, hooks, budget
 * and events apply per call).
 */
export function createProgramTool(options: ProgramToolOptions = {}): Tool<ProgramToolArgs> {
  const defaults = resolveProgramLimits(options.defaultLimits ?? {});
  return defineTool({
    name: 'program',
    description: DESCRIPTION,
    parameters: PROGRAM_PARAMETERS,
    orchestration: 'program',
    // Conservative: the script may call mutating tools, and tool names alone do not prove a
    // tool read-only, so the program is never scheduled as a safe parallel call.
    capabilities: () => ({ outputKind: 'structured' }),
    execute: (args, context) => executeProgram(args, context, defaults),
  });
}

async function executeProgram(args: ProgramToolArgs, context: ToolContext, defaults: ProgramRunLimits): Promise<ToolOutput> {
  const limits = resolveProgramLimits(args.limits, defaults);
  const early = (error: ProgramError): ToolOutput =>
    renderProgramOutcome({ error, toolCalls: [], logs: [], logsTruncated: false, durationMs: 0, moduleGeneration: 0, disposedCleanly: true }, limits, (content, o) =>
      context.storeArtifact(content, o),
    );
  if (args.type !== 'script') return early(programError('PROGRAM_INVALID_ARGUMENT', `unsupported program type '${String(args.type)}': only "script"`));
  if (args.language !== undefined && args.language !== 'javascript') {
    return early(programError('PROGRAM_INVALID_ARGUMENT', `unsupported program language '${String(args.language)}': only "javascript"`));
  }
  const loaded = await loadSource(args, context);
  if (typeof loaded !== 'string') return early(loaded);
  const bytes = utf8ByteLength(loaded);
  if (bytes > MAX_SOURCE_BYTES) {
    return early(programError('PROGRAM_SOURCE_TOO_LARGE', `program source is ${bytes} bytes, over the ${MAX_SOURCE_BYTES} byte limit`, { limit: MAX_SOURCE_BYTES, bytes }));
  }
  const outcome = await runProgram({
    source: loaded,
    inputs: args.inputs ?? {},
    limits,
    allowedTools: allowedTools(args.allowed_tools, context),
    invoke: (tool, toolArgs, abortSignal) => context.runtime.invoke(tool, toolArgs, { abortSignal }),
    abortSignal: context.abortSignal,
    owner: context.sessionId,
  });
  // Budget exhaustion / session close inside the script end the enclosing call the same way.
  if (outcome.hostError !== undefined) throw outcome.hostError;
  return renderProgramOutcome(outcome, limits, (content, o) => context.storeArtifact(content, o));
}

async function loadSource(args: ProgramToolArgs, context: ToolContext): Promise<string | ProgramError> {
  const hasSource = typeof args.source === 'string';
  const hasPath = typeof args.path === 'string';
  if (hasSource === hasPath) return programError('PROGRAM_INVALID_ARGUMENT', 'program needs exactly one of `source` and `path`');
  if (hasSource) return args.source as string;
  const path = args.path as string;
  if (!/\.m?js$/.test(path)) return programError('PROGRAM_INVALID_ARGUMENT', `program path must name a .js or .mjs file, got '${path}'`, { path });
  // Confinement is the backend's: a path leading out throws SECURITY_ERROR, which the kernel
  // reports as permission_denied.
  const file = await context.workspace.readFile({ path, abortSignal: context.abortSignal });
  if (file === null) return programError('PROGRAM_SCRIPT_NOT_FOUND', `program script '${path}' does not exist`, { path });
  if (file.size > MAX_SOURCE_BYTES) {
    return programError('PROGRAM_SOURCE_TOO_LARGE', `program source is ${file.size} bytes, over the ${MAX_SOURCE_BYTES} byte limit`, { limit: MAX_SOURCE_BYTES, bytes: file.size, path });
  }
  return new TextDecoder('utf-8').decode(file.content);
}

/** The allow-list of one run: the requested names (or the whole surface) minus the never-callable ones. */
function allowedTools(requested: readonly string[] | undefined, context: ToolContext): ReadonlySet<string> {
  const names = requested ?? context.runtime.toolNames();
  return new Set(names.filter((name) => !NEVER_CALLABLE_FROM_PROGRAM.includes(name) && name !== context.toolName));
}
