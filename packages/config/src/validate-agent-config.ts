import { CodeError } from '@a3s-lab/code-core';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { agentConfigValidator } from './agent-config-validator.generated.js';
import type { agentConfigJsonSchema } from './agent-config-schema.js';
import type { AclPosition } from './acl-syntax-error.js';

/** One schema violation, with the source position when the value came from ACL text. */
export interface AgentConfigIssue {
  /** JSON pointer of the offending value (`/providers/0/apiKey`); `''` for the root. */
  readonly path: string;
  /** What is wrong, e.g. `must be boolean`. */
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

function positionOf(pointer: string, positions: ReadonlyMap<string, AclPosition>): AclPosition | undefined {
  for (let path = pointer; ; path = path.slice(0, path.lastIndexOf('/'))) {
    const found = positions.get(path);
    if (found !== undefined || path === '') return found;
  }
}

function describeIssue(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `unknown key '${String(params['additionalProperty'])}'`;
  if (error.keyword === 'enum') return `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? error.keyword;
}

/**
 * Validates a normalised config object against {@link agentConfigJsonSchema}.
 *
 * @throws CodeError CONFIG_ERROR listing every violation (`details.issues`), each with the line
 *   and column of the attribute or block that produced it when known.
 */
export function validateAgentConfigObject(value: unknown, positions: ReadonlyMap<string, AclPosition>, file: string | undefined): void {
  // Precompiled at development time (ajv standalone, scripts/generate-validator.mjs): compiling
  // the schema at run time cost ~25 ms of every Agent.create (~100 ms on a loaded machine); a test
  // keeps the generated file identical to a fresh compile, index.test.ts compiles the schema with
  // meta-schema validation on.
  const validate = agentConfigValidator;
  if (validate(value)) return;
  const issues: AgentConfigIssue[] = (validate.errors ?? []).map((error) => {
    // `required` points at the parent; name the missing property so the path reads naturally.
    const missing = error.keyword === 'required' ? `/${String((error.params as Record<string, unknown>)['missingProperty'])}` : '';
    const position = positionOf(error.instancePath, positions);
    return {
      path: `${error.instancePath}${missing}`,
      message: error.keyword === 'required' ? 'is required' : describeIssue(error),
      ...(position === undefined ? {} : { line: position.line, column: position.column }),
    };
  });
  const lines = issues.map((issue) => {
    const where = issue.line === undefined ? '' : `${file === undefined ? 'line ' : `${file}:`}${issue.line}${file === undefined ? `, column ${issue.column}` : `:${issue.column}`}: `;
    return `${where}${issue.path === '' ? 'config' : issue.path.slice(1)} ${issue.message}`;
  });
  const first = issues[0];
  throw new CodeError('CONFIG_ERROR', `invalid agent config: ${lines.join('; ')}`, {
    details: { issues, ...(file === undefined ? {} : { file }), ...(first?.line === undefined ? {} : { line: first.line, column: first.column }) },
  });
}
