import { createRequire } from 'node:module';
import { assertPackageInstalled, lazyOptionalPackage } from '@a3s-lab/code-core/internal';
import type { OptionalPackage } from '@a3s-lab/code-core/internal';

/** The `@anthropic-ai/sdk` module, loaded on the first model call. */
export type AnthropicSdkModule = typeof import('@anthropic-ai/sdk');

/** `@anthropic-ai/sdk` is an optional peer dependency: only users of an Anthropic provider install it. */
export const ANTHROPIC_SDK_PACKAGE: OptionalPackage = { name: '@anthropic-ai/sdk', code: 'CONFIG_ERROR', neededBy: "the 'anthropic' provider", details: { provider: 'anthropic' } };

/**
 * Loads `@anthropic-ai/sdk` once, on the first request of the first Anthropic client.
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) when it is not installed.
 */
export const loadAnthropicSdk: () => Promise<AnthropicSdkModule> = lazyOptionalPackage(ANTHROPIC_SDK_PACKAGE, () => import('@anthropic-ai/sdk'));

/** Fails at client creation, without loading it, when `@anthropic-ai/sdk` is not installed. */
export function assertAnthropicSdkInstalled(): void {
  assertPackageInstalled(ANTHROPIC_SDK_PACKAGE, createRequire(import.meta.url).resolve);
}
