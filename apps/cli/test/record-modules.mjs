// Preloaded with --import by lazy-commands.test.ts: appends the URL of every module the
// process resolves (ESM imports and CommonJS requires) to $A3S_MODULE_LOG.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const log = process.env.A3S_MODULE_LOG;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (log !== undefined) appendFileSync(log, `${resolved.url}\n`);
    return resolved;
  },
});
