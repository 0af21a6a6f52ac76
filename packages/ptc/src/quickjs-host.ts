import { createRequire } from 'node:module';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { VM_MEMORY_LIMIT_BYTES } from './vm-bounds.js';

const WASM_PAGE_BYTES = 65_536;

/**
 * The one QuickJS build we ship: `@jitl/quickjs-wasmfile-release-sync` (release, sync, separate
 * .wasm file). Loaded through `require` because the package's typings describe its CommonJS
 * build (a default export under `module.exports.default`), which is what `require` returns.
 */
function releaseSyncVariant(): QuickJSSyncVariant {
  const loaded: { readonly default: QuickJSSyncVariant } = createRequire(import.meta.url)('@jitl/quickjs-wasmfile-release-sync');
  return loaded.default;
}

/** The part of `WebAssembly.Memory` used here (the Node 20 typings do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

interface WasmMemoryConstructor {
  new (descriptor: { initial: number; maximum: number }): WasmMemory;
}

const WasmMemoryCtor = (globalThis as unknown as { WebAssembly: { Memory: WasmMemoryConstructor } }).WebAssembly.Memory;
/** The emscripten build's INITIAL_MEMORY: static data, the C stack and the first heap pages. */
const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;

/**
 * One loaded QuickJS WebAssembly module, shared by every program run of its VM worker thread until it
 * fails. The module's linear memory is ours: its growth is capped at
 * {@link VM_MEMORY_LIMIT_BYTES} above the initial size, and a refused growth is reported so the
 * run that caused it ends with PROGRAM_MEMORY_LIMIT even if the script catches the OOM.
 */
export class QuickJsHost {
  readonly module: QuickJSWASMModule;
  readonly memory: WasmMemory;
  /** Increases with every replacement; tests use it to see that a crash recreated the module. */
  readonly generation: number;
  #poisoned = false;
  #memoryRefused = false;
  readonly #poisonListeners = new Set<() => void>();

  constructor(module: QuickJSWASMModule, memory: WasmMemory, generation: number) {
    this.module = module;
    this.memory = memory;
    this.generation = generation;
  }

  /** True once the module failed (host stack overflow inside WASM, abort): it must not be used. */
  get poisoned(): boolean {
    return this.#poisoned;
  }

  /** Marks the module unusable and tells every run still on it. */
  poison(): void {
    if (this.#poisoned) return;
    this.#poisoned = true;
    for (const listener of [...this.#poisonListeners]) listener();
    this.#poisonListeners.clear();
    if (current !== null && currentHost === this) {
      current = null;
      currentHost = null;
    }
  }

  /** Registers a run to be told when the module is poisoned; returns the unregister function. */
  onPoison(listener: () => void): () => void {
    this.#poisonListeners.add(listener);
    return () => this.#poisonListeners.delete(listener);
  }

  /**
   * Reads and clears the "a memory growth was refused" flag. The flag is cleared again when a
   * later growth attempt of the same allocation succeeds (emscripten retries smaller steps).
   */
  takeMemoryRefusal(): boolean {
    const refused = this.#memoryRefused;
    this.#memoryRefused = false;
    return refused;
  }

  /** @internal called by the memory's `grow` guard. */
  setMemoryRefused(refused: boolean): void {
    this.#memoryRefused = refused;
  }
}

let current: Promise<QuickJsHost> | null = null;
let currentHost: QuickJsHost | null = null;
let generations = 0;

/**
 * The QuickJS module of this thread (a VM worker), loaded on first use and reused by every run; a poisoned one
 * is replaced here.
 */
export function acquireQuickJsHost(): Promise<QuickJsHost> {
  if (current === null || (currentHost !== null && currentHost.poisoned)) {
    const loading = loadHost();
    current = loading;
    loading.then(
      (host) => {
        if (current === loading) currentHost = host;
      },
      () => {
        if (current === loading) current = null;
      },
    );
  }
  return current;
}

async function loadHost(): Promise<QuickJsHost> {
  const maximumBytes = INITIAL_MEMORY_BYTES + VM_MEMORY_LIMIT_BYTES;
  const memory = new WasmMemoryCtor({ initial: INITIAL_MEMORY_BYTES / WASM_PAGE_BYTES, maximum: maximumBytes / WASM_PAGE_BYTES });
  let host: QuickJsHost | null = null;
  const nativeGrow = memory.grow.bind(memory);
  // Emscripten grows the heap through this method (retrying smaller steps when one fails), so
  // guarding it both enforces the cap and tells us exactly when an allocation was refused.
  Object.defineProperty(memory, 'grow', {
    value: (deltaPages: number): number => {
      if (memory.buffer.byteLength + deltaPages * WASM_PAGE_BYTES > maximumBytes) {
        host?.setMemoryRefused(true);
        throw new RangeError('program VM memory limit reached');
      }
      const previous = nativeGrow(deltaPages);
      host?.setMemoryRefused(false);
      return previous;
    },
  });
  const variant = newVariant(releaseSyncVariant(), { wasmMemory: memory as never });
  const module = await newQuickJSWASMModuleFromVariant(variant);
  generations += 1;
  host = new QuickJsHost(module, memory, generations);
  return host;
}
