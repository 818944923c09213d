// `node scripts/run.mjs scripts/which-chromium.ts`: which Chromium the tests, the audit and the bench
// start (local/chromium.ts), as one line "<source> <path>"; the npm one is unpacked if need be.
import { chromiumLaunch } from '#local/chromium.ts';

const { source, executablePath } = await chromiumLaunch();
console.log(`${source} ${executablePath}`);
