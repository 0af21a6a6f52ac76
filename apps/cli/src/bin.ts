#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// V8's code cache of the modules on disk (in os.tmpdir(), or NODE_COMPILE_CACHE; off with
// NODE_DISABLE_COMPILE_CACHE=1), as Node's own tools and TypeScript's do: a command's second start
// compiles none of the CLI's and the SDK's modules again. Before the CLI's modules load, so they
// are imported below, not at the top.
enableCompileCache();
const { main } = await import('./main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Nothing should outlive the run, but a stray handle must not keep the terminal waiting.
setTimeout(() => process.exit(code), 2_000).unref();
