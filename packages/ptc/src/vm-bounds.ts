// The fixed bounds of the program VM. This file imports nothing: the VM worker
// (program-worker.ts) loads it, and the worker's module graph must stay free of workspace
// packages so it runs from source (tsx) and from dist alike.

/**
 * How far the QuickJS heap may grow, in bytes (64 MiB). Enforced on the WebAssembly memory
 * itself, because QuickJS's own `setMemoryLimit` cannot see block sizes in this build.
 */
export const VM_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * QuickJS stack budget, in bytes (256 KiB). Small on purpose: QuickJS must report a
 * `stack overflow` before the host's own (V8) stack runs out beneath the WebAssembly frames.
 */
export const VM_MAX_STACK_SIZE = 256 * 1024;
/** Bytes of `console.*` output kept in `metadata.program.logs` (16 KiB). */
export const MAX_LOG_BYTES = 16 * 1024;
/** Results up to this size (8 MiB) are kept as an artifact when they exceed `maxOutputBytes`. */
export const MAX_RESULT_ARTIFACT_BYTES = 8 * 1024 * 1024;
/** Tools a program can never call, whatever its allow-list says. */
export const NEVER_CALLABLE_FROM_PROGRAM: readonly string[] = Object.freeze(['program', 'dynamic_workflow', 'parallel_task']);
