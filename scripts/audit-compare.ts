import { loadavg } from 'node:os';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumLaunch } from '#local/chromium.ts';
import { demoShop } from '#local/demo-shop.ts';
import { enterWorkingCopy } from '#local/working-copy.ts';

/** chrome-launcher 1.2's own --disable-features list (its DEFAULT_FLAGS). */
const LAUNCHER_OFF = [
  'Translate',
  'OptimizationHints',
  'MediaRouter',
  'DialMediaRouteProvider',
  'CalculateNativeWinOcclusion',
  'InterestFeedContentSuggestions',
  'CertificateTransparencyComponentUpdater',
  'AutofillServerCommunication',
  'PrivacySandboxSettings4',
  'RenderDocument',
];
const off = (features: string[]) => `--disable-features=${features.join(',')}`;
/** The audit's way to skip the edge cache (a cookie named like the session's). */
const RENDERED = { cookie: 'duuka.audit=1' };
const PATH = process.env.COMPARE_PATH ?? '/shop';
const RUNS = Number(process.env.COMPARE_RUNS ?? 2);
const ONLY = process.env.COMPARE_ONLY?.split(',');

type SetUp = {
  name: string;
  /** Chromium flags beyond local/chromium.ts's and --headless=new. */
  flags?: string[];
  settings?: Record<string, unknown>;
  /** A new Worker before each run (no warm-up fetch): its first render compiles it. */
  cold?: boolean;
  /** One Chromium for all runs (as the audit does), not one per run (as Lighthouse's CLI). */
  reuse?: boolean;
};
const SET_UPS: SetUp[] = [
  { name: 'audit-now' },
  // The audit before issue 38: a second --disable-features, which Chromium reads instead of
  // chrome-launcher's (RenderDocument and the rest back on).
  { name: 'audit-before', flags: ['--disable-features=PaintHolding'] },
  { name: 'paint-holding-off', flags: [off([...LAUNCHER_OFF, 'PaintHolding'])] },
  {
    name: 'render-document-on',
    flags: [off(LAUNCHER_OFF.filter((feature) => feature !== 'RenderDocument'))],
  },
  { name: 'devtools-throttling', settings: { throttlingMethod: 'devtools' } },
  { name: 'edge-cache', settings: { extraHeaders: {} } },
  { name: 'cold-worker', cold: true },
  { name: 'reused-chromium', reuse: true },
  {
    name: 'screen-390',
    settings: {
      screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: 2 },
    },
  },
  { name: 'six', settings: { throttling: { cpuSlowdownMultiplier: 6 } } },
];

async function main() {
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
  const copy = await enterWorkingCopy('duuka-compare');
  try {
    const shop = await demoShop();
    const url = new URL(PATH, shop.origin).href;
    const serve = shop.serve;
    let server = await serve();
    const browser = await chromiumLaunch();
    const start = (setUp: SetUp) =>
      launch({
        chromePath: browser.executablePath,
        envVars: browser.env,
        chromeFlags: ['--headless=new', ...browser.args, ...(setUp.flags ?? [])],
      });
    console.log(`${PATH}, ${browser.executablePath}`);
    for (const setUp of SET_UPS.filter((s) => !ONLY || ONLY.includes(s.name))) {
      const shared = setUp.reuse ? await start(setUp) : null;
      for (let run = 0; run < RUNS; run++) {
        if (setUp.cold) {
          await server.close();
          server = await serve();
        } else {
          // Warm, as the audit does (and for edge-cache, stores the page in the cache).
          const headers = (setUp.settings?.extraHeaders as Record<string, string>) ?? RENDERED;
          await fetch(url, { headers });
        }
        const chrome = shared ?? (await start(setUp));
        try {
          const result = await lighthouse(
            url,
            { port: chrome.port, logLevel: 'error' },
            {
              extends: 'lighthouse:default',
              settings: {
                onlyCategories: ['performance'],
                extraHeaders: RENDERED,
                ...setUp.settings,
              },
            },
          );
          if (result) console.log(`${setUp.name.padEnd(20)} ${line(result.lhr)}`);
        } finally {
          if (!shared) chrome.kill();
        }
      }
      shared?.kill();
    }
    await server.close();
    await shop.close();
  } finally {
    await copy.leave();
  }
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function line(lhr: Lhr): string {
  const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
  const details = (id: string) =>
    lhr.audits[id]?.details as { items?: Record<string, number | string>[] } | undefined;
  const group = (name: string) =>
    Math.round(
      Number(details('mainthread-work-breakdown')?.items?.find((i) => i.group === name)?.duration),
    );
  const seen = details('metrics')?.items?.[0] ?? {};
  return [
    `score ${Math.round((lhr.categories.performance?.score ?? 0) * 100)}`,
    `FCP ${ms('first-contentful-paint')}`,
    `LCP ${ms('largest-contentful-paint')}`,
    `TBT ${ms('total-blocking-time')}`,
    `main thread ${ms('mainthread-work-breakdown')} (style & layout ${group('styleLayout')}, script ${group('scriptEvaluation')})`,
    `observed paint ${seen.observedFirstContentfulPaint} DCL ${seen.observedDomContentLoaded} load ${seen.observedLoad}`,
    `server ${ms('server-response-time')}`,
    `benchmark ${Math.round(lhr.environment.benchmarkIndex)}`,
    `load average ${loadavg()[0]?.toFixed(1)}`,
  ].join(', ');
}

await main();
process.exit(0); // vite/workerd leave handles open
