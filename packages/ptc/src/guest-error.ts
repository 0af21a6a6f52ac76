import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { programError } from './program-error-code.js';
import type { ProgramError } from './program-error-code.js';
import { VM_MAX_STACK_SIZE, VM_MEMORY_LIMIT_BYTES } from './vm-bounds.js';

const MAX_MESSAGE_CHARS = 4_000;

/** What the host learned about a value the guest threw. */
export interface GuestErrorInfo {
  readonly name?: string;
  readonly message: string;
  readonly stack?: string;
}

/**
 * Reads a thrown guest value as plain strings. Only string properties are taken, so a getter
 * returning an object cannot smuggle anything; non-Error values are described as such.
 */
export function describeGuestError(vm: QuickJSContext, handle: QuickJSHandle): GuestErrorInfo {
  if (vm.typeof(handle) === 'object') {
    const name = stringProp(vm, handle, 'name');
    const message = stringProp(vm, handle, 'message');
    const stack = stringProp(vm, handle, 'stack');
    if (message !== undefined) {
      return { ...(name === undefined ? {} : { name }), message: clip(message), ...(stack === undefined ? {} : { stack: clip(stack) }) };
    }
  }
  return { message: `non-error value thrown: ${clip(safeDump(vm, handle))}` };
}

/**
 * Maps a guest failure to its program error code. QuickJS reports its own limits only as
 * InternalError messages (`out of memory`, `stack overflow`), so those engine strings are the
 * signal here; script-defined errors never reach a limit code because the name must be the
 * engine's own `InternalError` (JSON.parse reports its overflow as a SyntaxError).
 */
export function classifyGuestError(info: GuestErrorInfo, phase: 'module' | 'run'): ProgramError {
  const engine = info.name === 'InternalError' || info.name === 'SyntaxError' || info.name === 'RangeError';
  if (engine && info.message === 'out of memory') {
    return programError('PROGRAM_MEMORY_LIMIT', `program exceeded the VM memory limit of ${VM_MEMORY_LIMIT_BYTES} bytes`, { limit: VM_MEMORY_LIMIT_BYTES });
  }
  if (engine && info.message === 'stack overflow') {
    return programError('PROGRAM_STACK_OVERFLOW', `program exceeded the VM stack limit of ${VM_MAX_STACK_SIZE} bytes`, { limit: VM_MAX_STACK_SIZE });
  }
  if (phase === 'module' && info.name === 'SyntaxError') {
    return programError('PROGRAM_SYNTAX_ERROR', `program source is not a valid ES module: ${info.message}`, { ...info });
  }
  const label = info.name === undefined ? 'error' : info.name;
  return programError('PROGRAM_RUNTIME_ERROR', `program threw ${label}: ${info.message}`, { ...info, phase });
}

function stringProp(vm: QuickJSContext, handle: QuickJSHandle, key: string): string | undefined {
  const value = vm.getProp(handle, key);
  try {
    return vm.typeof(value) === 'string' ? vm.getString(value) : undefined;
  } finally {
    value.dispose();
  }
}

function safeDump(vm: QuickJSContext, handle: QuickJSHandle): string {
  const type = vm.typeof(handle);
  if (type === 'string') return JSON.stringify(vm.getString(handle));
  if (type === 'number' || type === 'boolean' || type === 'undefined') return String(vm.dump(handle));
  try {
    const dumped: unknown = vm.dump(handle);
    return typeof dumped === 'string' ? dumped : (JSON.stringify(dumped) ?? type);
  } catch {
    return type;
  }
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}...` : text;
}
