import { AssertionError, deepStrictEqual, notStrictEqual, strictEqual } from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';

/** The matchers the contract suites use, on `node:assert` (no test runner at load). */
export interface ContractExpectation {
  /** `Object.is` equality. */
  toBe(expected: unknown): void;
  /** Deep equality ignoring properties whose value is `undefined`. */
  toEqual(expected: unknown): void;
  /** Every property of `expected` is deep-equal in the actual value (recursively for objects and arrays). */
  toMatchObject(expected: object): void;
  toContain(expected: string): void;
  toBeNull(): void;
  toBeUndefined(): void;
  toBeLessThanOrEqual(bound: number): void;
  readonly not: { toBe(expected: unknown): void; toBeNull(): void };
}

function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined).map(([key, entry]) => [key, withoutUndefined(entry)]));
}

function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((entry, index) => matches(actual[index], entry));
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([key, entry]) => matches((actual as Record<string, unknown>)[key], entry));
  }
  return isDeepStrictEqual(actual, expected);
}

/** `expect(actual)` with the subset of matchers the suites need; failures throw `AssertionError`. */
export function expect(actual: unknown): ContractExpectation {
  return {
    toBe: (expected) => strictEqual(actual, expected),
    toEqual: (expected) => deepStrictEqual(withoutUndefined(actual), withoutUndefined(expected)),
    toMatchObject: (expected) => {
      if (!matches(actual, expected)) throw new AssertionError({ message: 'expected value to match object', actual, expected, operator: 'toMatchObject' });
    },
    toContain: (expected) => {
      if (typeof actual !== 'string' || !actual.includes(expected)) throw new AssertionError({ message: `expected ${JSON.stringify(actual)} to contain ${JSON.stringify(expected)}`, actual, expected, operator: 'toContain' });
    },
    toBeNull: () => strictEqual(actual, null),
    toBeUndefined: () => strictEqual(actual, undefined),
    toBeLessThanOrEqual: (bound) => {
      if (typeof actual !== 'number' || !(actual <= bound)) throw new AssertionError({ message: `expected ${String(actual)} <= ${bound}`, actual, expected: bound, operator: '<=' });
    },
    not: {
      toBe: (expected) => notStrictEqual(actual, expected),
      toBeNull: () => notStrictEqual(actual, null),
    },
  };
}
