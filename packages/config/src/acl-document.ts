import type { AclPosition } from './acl-syntax-error.js';

/**
 * A fully evaluated ACL value: strings, numbers, booleans, `null`, lists and objects.
 * Function calls such as `env("NAME")` are resolved while parsing.
 */
export type AclValue = string | number | boolean | null | readonly AclValue[] | AclObject;

/** An ACL object literal (`{ k = v }`). Keys are own data properties (`__proto__` is safe). */
export interface AclObject {
  readonly [key: string]: AclValue;
}

/** `name = value` inside a block body or at the top level. */
export interface AclAttribute extends AclPosition {
  readonly name: string;
  readonly value: AclValue;
}

/** `type "label" ... { body }`: a block with zero or more labels. */
export interface AclBlock extends AclPosition {
  readonly type: string;
  readonly labels: readonly string[];
  readonly body: AclBody;
}

/** The attributes and blocks of a block or of the whole document, each in source order. */
export interface AclBody {
  readonly attributes: readonly AclAttribute[];
  readonly blocks: readonly AclBlock[];
}

/** Something suspicious but not fatal found while reading a config. */
export interface AclWarning extends AclPosition {
  /**
   * Stable kind: `missing_env` when `env("NAME")` had no value and no default (the value became
   * `null`); `unknown_key` when `loadAgentConfig` met a top-level key it does not know (kept in
   * `extensions`).
   */
  readonly kind: 'missing_env' | 'unknown_key';
  /** Human-readable explanation. */
  readonly message: string;
  /** The environment variable name (`missing_env`) or the key as written (`unknown_key`). */
  readonly name: string;
  /** The file being parsed, when known. */
  readonly file?: string;
}

/** The result of {@link parseAcl}: the generic tree plus non-fatal warnings. */
export interface AclDocument {
  /** The file the text came from, when known (used in messages). */
  readonly file?: string;
  /** Top-level attributes and blocks. */
  readonly body: AclBody;
  /** Non-fatal findings, in source order. */
  readonly warnings: readonly AclWarning[];
}
