#!/usr/bin/env node
// Prints the plain line `N passed, N failed` from vitest's JSON report. A test file that failed
// to load (import error, syntax error, crash in a hook) has no assertion results; it counts as
// one failure so a broken suite can never look green.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.log('0 passed, 1 failed');
  console.error(`summarize-vitest: no report at ${file}`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
let passed = 0;
let failed = 0;
for (const suite of report.testResults ?? []) {
  const assertions = suite.assertionResults ?? [];
  for (const a of assertions) {
    if (a.status === 'passed') passed += 1;
    else if (a.status === 'failed') failed += 1;
  }
  if (suite.status === 'failed' && !assertions.some((a) => a.status === 'failed')) failed += 1;
}
if ((report.testResults ?? []).length === 0 && report.success === false) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
