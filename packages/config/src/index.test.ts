import { describe, expect, it } from 'vitest';
import * as config from './index.js';

describe('@a3s-lab/code-config public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(config).sort()).toEqual([
      'MAX_ACL_NESTING_DEPTH',
      'agentConfigJsonSchema',
      'isInlineAcl',
      'loadAgentConfig',
      'loadAgentDirectory',
      'loadAgentDocument',
      'mergeAclDocuments',
      'parseAcl',
      'parseFrontmatter',
      'parseSkill',
      'resolveModel',
      'toAgentConfig',
    ]);
  });

  it('publishes a config schema that ajv compiles in strict mode', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const validate = new Ajv2020({ strict: true }).compile(config.agentConfigJsonSchema);
    expect(validate({ defaultModel: 'openai/gpt-4o', providers: [{ name: 'openai', models: [{ id: 'gpt-4o' }] }] })).toBe(true);
    expect(validate({ defaultModel: 'openai/gpt-4o', providers: [], typo: 1 })).toBe(false);
  });
});
