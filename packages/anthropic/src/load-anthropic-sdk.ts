import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** The `@anthropic-ai/sdk` module, loaded on the first model call. */
export type AnthropicSdkModule = typeof import('@anthropic-ai/sdk');

/**
 * In the built package, the path of our bundled copy of `@anthropic-ai/sdk`
 * (`./vendor/anthropic-ai-sdk.cjs`, set by `bundle-package.mjs --vendor=@anthropic-ai/sdk`);
 * undeclared when the sources run (tests), which load the installed package instead.
 */
declare const A3S_VENDORED_ANTHROPIC_AI_SDK: string | undefined;

/**
 * Loads `@anthropic-ai/sdk` on an Anthropic client's first request: the copy
 * bundled into this package (one CommonJS file: ~100 ms instead of ~210 ms for the package's 327
 * files through Node's CommonJS loader, measured on Node 20 with 1.14), so there is nothing to
 * install. Our copy is private to the client: no class of it is shared with the host's own copy.
 */
export async function loadAnthropicSdk(): Promise<AnthropicSdkModule> {
  // Node's module cache keeps one copy per process however many clients load it.
  const sdk: AnthropicSdkModule = requireHere(typeof A3S_VENDORED_ANTHROPIC_AI_SDK === 'string' ? A3S_VENDORED_ANTHROPIC_AI_SDK : '@anthropic-ai/sdk');
  return sdk;
}
