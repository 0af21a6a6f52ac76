import { CodeError } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';

import { loadAgentConfig } from './load-agent-config.js';

const MINIMAL = 'default_model = "openai/gpt-4o"\nproviders "openai" { models "gpt-4o" {} }\n';

describe('loadAgentConfig: sandbox block', () => {
  it('reads mode, network, allow_write, deny_read and auto_allow_bash', () => {
    const config = loadAgentConfig(`${MINIMAL}sandbox {
  mode = "required"
  network = "none"
  allow_write = ["/var/cache/build"]
  deny_read = ["~/.gnupg"]
  auto_allow_bash = true
}`);
    expect(config.sandbox).toEqual({ mode: 'required', network: 'none', allowWrite: ['/var/cache/build'], denyRead: ['~/.gnupg'], autoAllowBash: true });
  });

  it('reads a network allow-list block', () => {
    const config = loadAgentConfig(`${MINIMAL}sandbox { network { allow = ["registry.npmjs.org:443"] } }`);
    expect(config.sandbox).toEqual({ network: { allow: ['registry.npmjs.org:443'] } });
  });

  it.each(['sandbox { mode = "sometimes" }', 'sandbox { disabled = true }', 'sandbox { network = "some" }', 'sandbox { network { allow = [] } }'])('rejects %s', (block) => {
    let error: unknown;
    try {
      loadAgentConfig(`${MINIMAL}${block}`);
    } catch (caught) {
      error = caught;
    }
    expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
  });
});
