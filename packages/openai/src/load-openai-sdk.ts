import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** The `openai` module, loaded on the first model call. */
export type OpenAISdkModule = typeof import('openai');

/**
 * In the built package, the path of our bundled copy of `openai` (`./vendor/openai.cjs`, set by
 * `bundle-package.mjs --vendor=openai`); undeclared when the sources run (tests), which load the
 * installed package instead.
 */
declare const A3S_VENDORED_OPENAI: string | undefined;

/**
 * Loads `openai` on an OpenAI-protocol client's first request: the copy bundled
 * into this package (one CommonJS file: ~40 ms instead of ~110 ms for the package's files through
 * Node's CommonJS loader, measured on Node 20 with openai 6), so there is nothing to install. Our
 * copy is private to the client: no class of it is shared with the host's own copy.
 */
export async function loadOpenAISdk(): Promise<OpenAISdkModule> {
  // Node's module cache keeps one copy per process however many clients load it.
  const sdk: OpenAISdkModule = requireHere(typeof A3S_VENDORED_OPENAI === 'string' ? A3S_VENDORED_OPENAI : 'openai');
  return sdk;
}
