import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CodeError } from './code-error.js';
import { assertPackageInstalled, lazyOptionalPackage, missingPackageError } from './optional-package.js';
import type { OptionalPackage } from './optional-package.js';

const MISSING: OptionalPackage = { name: '@a3s-lab/not-installed-anywhere', code: 'CONFIG_ERROR', neededBy: "the 'x' provider", details: { provider: 'x' } };
const resolve = createRequire(import.meta.url).resolve;

describe('optional packages', () => {
  it('names the missing package and how to add it', () => {
    const error = missingPackageError(MISSING);
    expect(error.code).toBe('CONFIG_ERROR');
    expect(error.details).toEqual({ provider: 'x', reason: 'package_missing', package: MISSING.name });
    expect(error.message).toContain(`npm install ${MISSING.name}`);
  });

  it('checks presence by resolution only', () => {
    expect(() => assertPackageInstalled(MISSING, resolve)).toThrow(CodeError);
    expect(() => assertPackageInstalled({ ...MISSING, name: 'ajv' }, resolve)).not.toThrow();
  });

  it('loads once, and retries after a failed load', async () => {
    let calls = 0;
    const load = lazyOptionalPackage(MISSING, async () => {
      calls += 1;
      if (calls === 1) throw Object.assign(new Error('Cannot find package'), { code: 'ERR_MODULE_NOT_FOUND' });
      return { loaded: calls };
    });
    const error = await load().catch((caught: unknown) => caught);
    expect(CodeError.hasCode(error, 'CONFIG_ERROR') && (error as CodeError).details['reason']).toBe('package_missing');
    expect(await load()).toEqual({ loaded: 2 });
    expect(await load()).toEqual({ loaded: 2 });
    expect(calls).toBe(2);
  });

  it('passes other load failures through', async () => {
    const load = lazyOptionalPackage(MISSING, async () => {
      throw new SyntaxError('broken module');
    });
    await expect(load()).rejects.toThrow(SyntaxError);
  });
});
