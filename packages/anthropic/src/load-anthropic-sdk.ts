import { createRequire } from 'node:module';
import { assertPackageInstalled, lazyOptionalPackage } from '@a3s-lab/code-core/internal';
import type { OptionalPackage } from '@a3s-lab/code-core/internal';

const requireHere = createRequire(import.meta.url);

/** The `@anthropic-ai/sdk` module, loaded on the first model call. */
export type AnthropicSdkModule = typeof import('@anthropic-ai/sdk');

/** `@anthropic-ai/sdk` is an optional peer dependency: only users of an Anthropic provider install it. */
export const ANTHROPIC_SDK_PACKAGE: OptionalPackage = { name: '@anthropic-ai/sdk', code: 'CONFIG_ERROR', neededBy: "the 'anthropic' provider", details: { provider: 'anthropic' } };

/**
 * Loads `@anthropic-ai/sdk` once, on the first request of the first Anthropic client.
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) when it is not installed.
 */
export const loadAnthropicSdk: () => Promise<AnthropicSdkModule> = lazyOptionalPackage(ANTHROPIC_SDK_PACKAGE, async () => {
  // Its CommonJS build: the ESM one is ~320 module files that Node's ESM loader takes ~1.6x as
  // long to load (measured on Node 20: ~210 vs ~130 ms for @anthropic-ai/sdk 1.14), and this load
  // sits before the first model call. Our copy is private to the client: no class of it is shared.
  const sdk: AnthropicSdkModule = requireHere('@anthropic-ai/sdk');
  return sdk;
});

/** Fails at client creation, without loading it, when `@anthropic-ai/sdk` is not installed. */
export function assertAnthropicSdkInstalled(): void {
  assertPackageInstalled(ANTHROPIC_SDK_PACKAGE, requireHere.resolve);
}
