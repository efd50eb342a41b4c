// The "N passed, N failed" line .ci/run ends with, from what `npm test` leaves in the working
// directory: vitest's JSON report (.test-results.json) and the type check's result
// (.typecheck-result, counted as one test of its own). Usage: node bin/count-results.mjs <npm test's exit status>
//
// Plain JavaScript: Node 20 runs it as it is, with no loader, as it ran the count inline before.
//
// Vitest's own totals undercount a red run: when a file's beforeAll throws or times out, the tests
// below it are reported skipped, not failed, and a file that fails to load has no tests at all. So
// every test that did not pass in a failed file counts as failed, and a failed file counts at least
// one failure. A run whose only errors are unhandled ones (outside any test) exits non-zero with
// every test passed: it counts one failure, so the line never reads green for a red run.
import { readFileSync } from 'node:fs';

/**
 * Counts a parsed vitest JSON report (undefined when there is none) and the type check's result
 * ("passed", "failed", or undefined when it never ended), given npm test's exit status.
 */
function countResults(report, typecheck, exitStatus) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (report === undefined) {
    failed += 1; // the run failed before any test ran
  } else {
    for (const file of report.testResults ?? []) {
      const tests = file.assertionResults ?? [];
      const passedHere = tests.filter((test) => test.status === 'passed').length;
      const notPassedHere = tests.length - passedHere;
      passed += passedHere;
      if (file.status === 'failed') failed += Math.max(notPassedHere, 1);
      else skipped += notPassedHere;
    }
  }
  if (typecheck === 'passed') passed += 1;
  else failed += 1;
  if (exitStatus !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

function readIfThere(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parsedReport(text) {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // cut short: the run ended while writing it
  }
}

const statusArgument = process.argv[2] ?? '';
const { passed, failed, skipped } = countResults(
  parsedReport(readIfThere('.test-results.json')),
  readIfThere('.typecheck-result')?.trim(),
  /^\d+$/.test(statusArgument) ? Number(statusArgument) : 1,
);
if (skipped > 0) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
