import { CodeError } from '@a3s-lab/code-core';

/** A 1-based position in ACL source text. */
export interface AclPosition {
  /** 1-based line number. */
  readonly line: number;
  /** 1-based column, counted in UTF-16 code units from the start of the line. */
  readonly column: number;
}

/**
 * Builds the CONFIG_ERROR raised for malformed ACL text. The message starts with the location
 * (`agent.acl:3:14: ...`, or `line 3, column 14: ...` for inline text) so a human can jump to it;
 * `details` carries `{ line, column, file? }` for tools.
 */
export function aclSyntaxError(message: string, position: AclPosition, file: string | undefined): CodeError {
  const where = file === undefined ? `line ${position.line}, column ${position.column}` : `${file}:${position.line}:${position.column}`;
  return new CodeError('CONFIG_ERROR', `${where}: ${message}`, {
    details: { line: position.line, column: position.column, ...(file === undefined ? {} : { file }) },
  });
}
