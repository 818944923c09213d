// Where a browser test's time goes (issue 32): E2E_PROFILE=<file> appends one JSON line per timed
// step (axe scan, screenshot, page load, sign-up through the mailbox, sign-in) with the test's
// name and its milliseconds; without it nothing is recorded. BENCHMARKS.md ("Issue 32: browser
// tests' time") says how it was read.
import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';

export async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const file = process.env.E2E_PROFILE;
  if (!file) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    const ms = Math.round(performance.now() - started);
    const test = expect.getState().currentTestName ?? '(hooks)';
    const at = expect.getState().testPath?.split('/').pop();
    appendFileSync(file, `${JSON.stringify({ file: at, test, step, ms })}\n`);
  }
}
