import { createRequire } from 'node:module';
import { assertPackageInstalled, lazyOptionalPackage } from '@a3s-lab/code-core/internal';
import type { OptionalPackage } from '@a3s-lab/code-core/internal';

const requireHere = createRequire(import.meta.url);

/** The `openai` module, loaded on the first model call. */
export type OpenAISdkModule = typeof import('openai');

/** `openai` is an optional peer dependency: only users of an OpenAI-protocol provider install it. */
export const OPENAI_SDK_PACKAGE: OptionalPackage = { name: 'openai', code: 'CONFIG_ERROR', neededBy: "the 'openai' provider", details: { provider: 'openai' } };

/**
 * Loads `openai` once, on the first request of the first OpenAI-protocol client.
 * @throws CodeError CONFIG_ERROR (`details.reason` `package_missing`) when it is not installed.
 */
export const loadOpenAISdk: () => Promise<OpenAISdkModule> = lazyOptionalPackage(OPENAI_SDK_PACKAGE, async () => {
  // Its CommonJS build, which Node loads faster than the ESM one (as for @anthropic-ai/sdk: see
  // load-anthropic-sdk.ts). Our copy is private to the client: no class of it is shared.
  const sdk: OpenAISdkModule = requireHere('openai');
  return sdk;
});

/** Fails at client creation, without loading it, when `openai` is not installed. */
export function assertOpenAISdkInstalled(): void {
  assertPackageInstalled(OPENAI_SDK_PACKAGE, requireHere.resolve);
}
