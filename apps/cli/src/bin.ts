#!/usr/bin/env node
import { main } from './main.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Nothing should outlive the run, but a stray handle must not keep the terminal waiting.
setTimeout(() => process.exit(code), 2_000).unref();
