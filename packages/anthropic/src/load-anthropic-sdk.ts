import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** The part of `@anthropic-ai/sdk` the client uses (`./anthropic-sdk-entry.ts`), loaded on the first model call. */
export type AnthropicSdkModule = typeof import('./anthropic-sdk-entry.js');

/**
 * In the built package, the path of our bundled copy of `@anthropic-ai/sdk`'s part we use
 * (`./vendor/anthropic-ai-sdk.cjs`, built from `anthropic-sdk-entry.ts` by `bundle-package.mjs
 * --vendor=@anthropic-ai/sdk=src/anthropic-sdk-entry.ts`); undeclared when the sources run
 * (tests), which import that entry from the installed package instead.
 */
declare const A3S_VENDORED_ANTHROPIC_AI_SDK: string | undefined;

/**
 * Loads `@anthropic-ai/sdk` on an Anthropic client's first request: the copy bundled into this
 * package (one CommonJS file of the SDK's client and Messages resource: ~10 ms, where the whole
 * SDK bundled took ~44 ms and its package's 327 files through Node's CommonJS loader ~210), so
 * there is nothing to install. Our copy is private to the client: no class of it is shared with
 * the host's own copy.
 */
export async function loadAnthropicSdk(): Promise<AnthropicSdkModule> {
  // Node's module cache keeps one copy per process however many clients load it. (One
  // expression: with the path defined, the bundler drops the other branch and its import.)
  return typeof A3S_VENDORED_ANTHROPIC_AI_SDK === 'string' ? (requireHere(A3S_VENDORED_ANTHROPIC_AI_SDK) as AnthropicSdkModule) : import('./anthropic-sdk-entry.js');
}
