import type { AnyTool } from '@a3s-lab/code-core';
import { ARGUMENT_VALIDATOR_OPTIONS } from '@a3s-lab/code-core/kernel';
import { standaloneValidatorMapSource } from '@a3s-lab/code-core/util';
import { createBuiltinTools } from './builtin-tools.js';
import { createGenerateObjectTool } from './generate-object-tool.js';
import { createParallelTaskTool } from './parallel-task-tool.js';
import { createSearchSkillsTool, createSkillTool } from './skill-tool.js';
import { createTaskTool } from './task-tool.js';
import { createUpdatePlanTool } from './update-plan-tool.js';

/** Every tool of this package (each factory without options): the schemas precompiled for the kernel. */
export function toolsWithPrecompiledValidators(): AnyTool[] {
  return [...createBuiltinTools(), createGenerateObjectTool(), createUpdatePlanTool(), createTaskTool(), createParallelTaskTool(), createSkillTool(), createSearchSkillsTool()];
}

/**
 * TypeScript source of `builtin-argument-validators.generated.ts`: the argument schemas of
 * {@link toolsWithPrecompiledValidators} compiled by ajv's standalone generator with the kernel's
 * options, so a session of built-in tools validates arguments without loading Ajv (~40 files) or
 * compiling a schema. Written by `scripts/generate-validators.ts`; a test keeps it current.
 *
 * @param require a `require` that resolves `ajv` (development time only).
 */
export function builtinArgumentValidatorsSource(require: (id: string) => unknown): string {
  const schemas = toolsWithPrecompiledValidators().map((tool) => {
    if ('$schema' in tool.parameters) throw new Error(`${tool.name}: a built-in schema is draft-07 without $schema`);
    return tool.parameters;
  });
  return standaloneValidatorMapSource(require, {
    schemas,
    options: ARGUMENT_VALIDATOR_OPTIONS,
    exportName: 'BUILTIN_ARGUMENT_VALIDATORS',
    description: 'Argument validators of the built-in tools, by the JSON text of their schema.',
    generatedBy: 'scripts/generate-validators.ts from the tools of builtin-argument-validators-source.ts',
    ucs2lengthFrom: '@a3s-lab/code-core/util',
  });
}
