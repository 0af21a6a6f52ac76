#!/usr/bin/env node
import { enableCompileCache } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

// V8's code cache of the modules on disk, as Node's own tools and TypeScript's keep one: a
// command's second start compiles none of the CLI's and the SDK's modules again. In the user's own
// cache directory, not Node's default under the shared os.tmpdir(), where another user of the
// machine could leave a cache for this process to run; NODE_COMPILE_CACHE picks another,
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. Before the CLI's modules load, so they are imported
// below, not at the top.
const setting = (name: string): string | undefined => (process.env[name] === '' ? undefined : process.env[name]);
enableCompileCache(setting('NODE_COMPILE_CACHE') ?? join(setting('XDG_CACHE_HOME') ?? join(homedir(), '.cache'), 'a3s-code', 'compile-cache'));
const { main } = await import('./main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Nothing should outlive the run, but a stray handle must not keep the terminal waiting.
setTimeout(() => process.exit(code), 2_000).unref();
