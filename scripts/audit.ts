// `npm run audit`: Lighthouse (mobile, Chromium) on the shop's main routes, served as
// Cloudflare serves them: the production build in workerd behind a local proxy that compresses
// text (brotli, else gzip), on an embedded database with the demo catalogue. Signed-in routes use
// a shopper's session (with a cart and an order). Full reports go to .audit/ (git-ignored); the
// summary table goes into BENCHMARKS.md (between the audit markers). The browser is the tests'
// (local/chromium.ts): Debian's when installed, else the npm package's; CHROMIUM_PATH overrides.
// Issue 38 (a cheap phone): the main routes once more at 6× CPU slowdown (the mobile preset is 4×),
// with main-thread work by kind and the heaviest scripts, and the targets each route misses.
// Measured as a shopper's first visit is (see BENCHMARKS.md, "Why the project's audit and the
// issue's Lighthouse disagreed"): Chromium as Lighthouse starts it (paint holding on), and the
// anonymous pages rendered, not from the edge cache.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import { sql } from 'drizzle-orm';
import lighthouse from 'lighthouse';
import { chromiumLaunch } from '#local/chromium.ts';
import { demoShop } from '#local/demo-shop.ts';
import { shopperOverHttp } from '#local/http-shopper.ts';
import { enterWorkingCopy } from '#local/working-copy.ts';

const ROUTES: { name: string; path: string; signedIn: boolean }[] = [
  { name: 'home', path: '/', signedIn: false },
  { name: 'shop', path: '/shop', signedIn: false },
  { name: 'product', path: '/products/ankara-wrap-dress', signedIn: false },
  { name: 'about', path: '/about', signedIn: false },
  { name: 'cart', path: '/cart', signedIn: true },
  { name: 'checkout', path: '/checkout', signedIn: true },
  { name: 'orders', path: '/orders', signedIn: true },
];
/** Signed-in routes audited once more with the database far away (LOCAL_DB_LATENCY_MS). */
const FAR_ROUTES = ['/cart', '/orders'];
/** Neon's region seen from Kampala: every database request held 150 ms (issue 25). */
const FAR_MS = 150;
/** Routes audited at 6× as well: a cheap Android (issue 38). */
const SLOW_ROUTES = ['/', '/shop', '/products/ankara-wrap-dress', '/cart', '/checkout'];
const SLOW = 6;
/** Issue 38's targets: performance at the preset's 4× on every route, TBT at 6×. */
const TARGET = { performance: 97, tbtAt6: 150 };
/** Lighthouse varies from run to run: each route is audited this many times; each figure is the
 * median of its runs, and the report kept is the run of median performance. AUDIT_RUNS=1 (or
 * AUDIT_ROUTES) makes a quick check: printed, BENCHMARKS.md left alone. */
const RUNS = Number(process.env.AUDIT_RUNS ?? 5);
/** AUDIT_ROUTES=/,/shop audits only those paths. */
const only = process.env.AUDIT_ROUTES?.split(',');
/** A cookie named like the session's (not one): the edge cache keeps no page for it
 * (server/http/page-cache.ts), so a signed-out page is rendered, as on a first visit to a quiet
 * shop (a page is kept 60 s per data centre). */
const SKIP_EDGE_CACHE = 'duuka.audit=1';
/** Lighthouse's main-thread groups (mainthread-work-breakdown), in the tables' order. */
const GROUPS: Record<string, string> = {
  styleLayout: 'style & layout',
  scriptEvaluation: 'script evaluation',
  other: 'other',
  parseHTML: 'parse HTML & CSS',
  paintCompositeRender: 'rendering',
  scriptParseCompile: 'script parse & compile',
  garbageCollection: 'GC',
};
type Row = {
  route: string;
  /** Lighthouse's CPU slowdown (simulated): 4 (the mobile preset) or 6. */
  slowdown: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The SEO audits that failed. */
  seoFailed: string[];
  lcp: number;
  /** Time to interactive (Lighthouse's TTI, simulated). */
  tti: number;
  cls: number;
  tbt: number;
  jsKib: number;
  fcp: number;
  /** Main-thread work (ms, at the slowdown) in all, and by group (GROUPS). */
  mainThread: number;
  breakdown: Record<string, number>;
  /** The heaviest scripts (bootup-time): address (path) and main-thread ms. */
  scripts: { url: string; ms: number }[];
  /** Lighthouse's CPU benchmark of this machine (it does not scale for it). */
  benchmarkIndex: number;
};

/** What measured: Lighthouse's version and the browser's (from the reports). */
const measuredWith = { lighthouse: '', browser: '' };

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'; // Request.cf from Cloudflare: offline here
  const copy = await enterWorkingCopy('duuka-audit');
  const reports = join(copy.repo, '.audit');
  await mkdir(reports, { recursive: true });
  const rows: Row[] = [];
  const far: Row[] = [];
  try {
    console.log('building (vite build) a copy of the working tree...');
    const shop = await demoShop();
    const { db, endpoint, origin } = shop;
    const server = await shop.serve();
    const browser = await chromiumLaunch();
    const chrome = await launch({
      chromePath: browser.executablePath,
      envVars: browser.env,
      // As Lighthouse starts it: nothing switched off beyond chrome-launcher's own list. The audit
      // once switched paint holding off; that made it optimistic (BENCHMARKS.md, "Why the
      // project's audit and the issue's Lighthouse disagreed").
      chromeFlags: ['--headless=new', ...browser.args],
    });
    try {
      // A shopper with something in the cart and one order (variants: a size of a piece), for the
      // signed-in routes.
      const shopper = await shopperOverHttp(db, origin, {
        name: 'Audit Shopper',
        phone: '+256772100300',
        ip: '198.18.9.1',
      });
      const pieces = (
        await db.execute(sql`select id from product_variants where stock >= 5 order by id limit 2`)
      ).rows as { id: number }[];
      const order = await fetch(new URL('/api/trpc/checkout.placeOrder', origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: shopper.cookie, origin },
        body: JSON.stringify({
          orderId: randomUUID(),
          items: [{ variantId: pieces[0]?.id, quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        }),
      });
      if (order.status !== 200) throw new Error(`placeOrder answered ${order.status}`);
      await db.execute(
        sql`insert into cart_items (user_id, variant_id, quantity) values (${shopper.id}, ${pieces[1]?.id}, 1)`,
      );
      /** One Lighthouse run of a route at a CPU slowdown: its figures, and its HTML report. */
      const lighthouseRun = async (route: (typeof ROUTES)[number], slowdown: number) => {
        const result = await lighthouse(
          new URL(route.path, origin).href,
          { port: chrome.port, output: 'html', logLevel: 'error' },
          {
            extends: 'lighthouse:default',
            settings: {
              onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
              extraHeaders: { cookie: route.signedIn ? shopper.cookie : SKIP_EDGE_CACHE },
              throttling: { cpuSlowdownMultiplier: slowdown },
            },
          },
        );
        if (!result) throw new Error(`no Lighthouse result for ${route.path}`);
        const { lhr } = result;
        // With RenderDocument on (a --disable-features flag of our own replaced chrome-launcher's
        // list once), Lighthouse misread the navigation: DOMContentLoaded 2–5 ms after its start.
        const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] })
          ?.items?.[0];
        if ((observed?.observedDomContentLoaded ?? 100) < 10) {
          console.warn(`${route.path}: Lighthouse misread the navigation (DOMContentLoaded at 0)`);
        }
        measuredWith.lighthouse = lhr.lighthouseVersion;
        measuredWith.browser = `${browser.source === 'debian' ? "Debian's " : browser.source === 'npm' ? "the npm package's " : ''}${/HeadlessChrome\/[\d.]+|Chrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0] ?? 'Chromium'}`;
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? 0;
        const items = <T>(id: string) =>
          ((lhr.audits[id]?.details as { items?: T[] } | undefined)?.items ?? []) as T[];
        const scripts = items<{ resourceType?: string; transferSize?: number }>(
          'network-requests',
        ).filter((item) => item.resourceType === 'Script');
        const row: Row = {
          route: route.path,
          slowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? slowdown,
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
          seoFailed: (lhr.categories.seo?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => ref.id),
          fcp: Math.round(audit('first-contentful-paint')),
          lcp: Math.round(audit('largest-contentful-paint')),
          tti: Math.round(audit('interactive')),
          cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
          tbt: Math.round(audit('total-blocking-time')),
          jsKib:
            Math.round(scripts.reduce((n, item) => n + (item.transferSize ?? 0), 0) / 102.4) / 10,
          mainThread: Math.round(audit('mainthread-work-breakdown')),
          breakdown: Object.fromEntries(
            items<{ group: string; duration: number }>('mainthread-work-breakdown').map((i) => [
              i.group,
              Math.round(i.duration),
            ]),
          ),
          scripts: items<{ url: string; total: number }>('bootup-time')
            .slice(0, 3)
            .map((i) => ({ url: i.url.replace(origin, ''), ms: Math.round(i.total) })),
          benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
        };
        return { row, report: String(result.report) };
      };
      /** `runCount` runs of a route: each figure their median; the median run's report is kept. */
      const audited = async (
        route: (typeof ROUTES)[number],
        runCount: number,
        name: string,
        slowdown = 4,
      ) => {
        await fetch(new URL(route.path, origin)); // warm: the first render compiles the Worker
        const runs: { row: Row; report: string }[] = [];
        for (let run = 0; run < runCount; run++) runs.push(await lighthouseRun(route, slowdown));
        runs.sort((a, b) => a.row.performance - b.row.performance);
        const middle = runs[Math.floor(runs.length / 2)];
        if (!middle) throw new Error(`no Lighthouse result for ${route.path}`);
        await writeFile(join(reports, `${name}.html`), middle.report);
        const of = (pick: (row: Row) => number) => median(runs.map((r) => pick(r.row)));
        const row: Row = {
          ...middle.row,
          performance: of((r) => r.performance),
          accessibility: of((r) => r.accessibility),
          bestPractices: of((r) => r.bestPractices),
          seo: of((r) => r.seo),
          fcp: of((r) => r.fcp),
          lcp: of((r) => r.lcp),
          tti: of((r) => r.tti),
          cls: of((r) => r.cls),
          tbt: of((r) => r.tbt),
          mainThread: of((r) => r.mainThread),
          breakdown: Object.fromEntries(
            Object.keys(GROUPS).map((group) => [group, of((r) => r.breakdown[group] ?? 0)]),
          ),
        };
        const { route: path, performance, tbt, lcp, mainThread, benchmarkIndex } = row;
        console.log(
          JSON.stringify({ path, slowdown, performance, tbt, lcp, mainThread, benchmarkIndex }),
        );
        return row;
      };
      const wanted = ROUTES.filter((r) => !only || only.includes(r.path));
      for (const route of wanted) rows.push(await audited(route, RUNS, route.name));
      // A cheap phone: the main routes at 6×.
      for (const route of wanted.filter((r) => SLOW_ROUTES.includes(r.path))) {
        rows.push(await audited(route, RUNS, `${route.name}-${SLOW}x`, SLOW));
      }
      // Once more, far from the database: what a signed-in shopper in Kampala waits for.
      await endpoint.setLatency(FAR_MS);
      for (const route of wanted.filter((r) => FAR_ROUTES.includes(r.path))) {
        far.push(await audited(route, 1, `${route.name}-at-${FAR_MS}ms`));
      }
      await endpoint.setLatency(0);
    } finally {
      chrome.kill();
      await server.close();
      await shop.close();
    }
  } finally {
    await copy.leave();
  }
  const section = summary(rows, far);
  console.log(`\n${section}`);
  if (!only && RUNS >= 5) await writeSummary(section);
  else console.log('\n(a quick check: BENCHMARKS.md left as it was)');
}

/** The targets a row misses, in words (issue 38's, and 100 for the other categories). */
function missed(r: Row): string[] {
  if (r.slowdown !== 4) {
    return r.tbt > TARGET.tbtAt6 ? [`TBT ${r.tbt} ms at ${SLOW}× (≤ ${TARGET.tbtAt6})`] : [];
  }
  return [
    r.performance < TARGET.performance && `performance ${r.performance} (≥ ${TARGET.performance})`,
    r.accessibility < 100 && `accessibility ${r.accessibility}`,
    r.bestPractices < 100 && `best practices ${r.bestPractices}`,
    r.seo < 100 && `SEO ${r.seo}`,
  ].filter((text): text is string => !!text);
}

/** The audit's section of BENCHMARKS.md (also printed). */
function summary(rows: Row[], far: Row[]): string {
  const at4 = rows.filter((r) => r.slowdown === 4);
  const at6 = rows.filter((r) => r.slowdown === SLOW);
  const near = new Map(at4.map((r) => [r.route, r]));
  const farTable = [
    `| signed-in route | LCP ms at 0 / ${FAR_MS} ms | TTI ms at 0 / ${FAR_MS} ms |`,
    '| --- | ---: | ---: |',
    ...far.map(
      (r) =>
        `| ${r.route} | ${near.get(r.route)?.lcp} / ${r.lcp} | ${near.get(r.route)?.tti} / ${r.tti} |`,
    ),
  ].join('\n');
  const table = [
    '| route | performance | accessibility | best practices | SEO | FCP ms | LCP ms | CLS | TBT ms | main thread ms | JS KiB (transferred) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...at4.map(
      (r) =>
        `| ${r.route} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo}${r.seoFailed.length ? ` (${r.seoFailed.join(', ')})` : ''} | ${r.fcp} | ${r.lcp} | ${r.cls} | ${r.tbt} | ${r.mainThread} | ${r.jsKib} |`,
    ),
  ].join('\n');
  const slowTable = [
    `| route | performance at 4× / ${SLOW}× | TBT ms at 4× / ${SLOW}× | LCP ms at 4× / ${SLOW}× | main thread ms at 4× / ${SLOW}× |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...at6.map((r) => {
      const n = near.get(r.route);
      return `| ${r.route} | ${n?.performance} / ${r.performance} | ${n?.tbt} / ${r.tbt} | ${n?.lcp} / ${r.lcp} | ${n?.mainThread} / ${r.mainThread} |`;
    }),
  ].join('\n');
  const breakdownTable = [
    `| route | CPU | all ms | ${Object.values(GROUPS).join(' | ')} |`,
    `| --- | ---: | ---: | ${Object.keys(GROUPS)
      .map(() => '---:')
      .join(' | ')} |`,
    ...[...at4, ...at6]
      .sort((a, b) => a.route.localeCompare(b.route) || a.slowdown - b.slowdown)
      .map(
        (r) =>
          `| ${r.route} | ${r.slowdown}× | ${r.mainThread} | ${Object.keys(GROUPS)
            .map((group) => r.breakdown[group] ?? 0)
            .join(' | ')} |`,
      ),
  ].join('\n');
  const scriptsTable = [
    '| route | heaviest on the main thread at 4× (bootup-time, ms) |',
    '| --- | --- |',
    ...at4.map(
      (r) => `| ${r.route} | ${r.scripts.map((s) => `\`${s.url}\` ${s.ms}`).join(', ')} |`,
    ),
  ].join('\n');
  const misses = rows.flatMap((r) => missed(r).map((text) => `- ${r.route}: ${text}`));
  const indexes = rows.map((r) => r.benchmarkIndex);
  const farSection = far.length
    ? `

The database far away (every database request held ${FAR_MS} ms in the local endpoint, as Neon's
region is from Kampala), one run each: \`.audit/<route>-at-${FAR_MS}ms.html\`.

${farTable}`
    : '';
  return `<!-- audit:start -->
## Lighthouse (\`npm run audit\`)

${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: Lighthouse ${measuredWith.lighthouse} mobile preset (simulated throttling, 4× CPU), and ${SLOW}× on ${SLOW_ROUTES.length} routes, in
${measuredWith.browser}, the median of ${RUNS} runs per route and figure; the production build in workerd behind a proxy compressing text with brotli (as Cloudflare
does for a browser), embedded PGlite with the demo catalogue; signed-out pages rendered (not from the edge cache), signed-in routes with a shopper who
has a cart line and an order; Chromium as Lighthouse starts it (paint holding on). Lighthouse's CPU benchmark of this machine: ${Math.min(...indexes)}–${Math.max(...indexes)}
(it does not scale its slowdown for it); load average ${loadavg()[0]?.toFixed(1)} at the end. Reports: \`.audit/<route>.html\`, \`.audit/<route>-${SLOW}x.html\`.

${table}

A cheap phone: ${SLOW}× CPU slowdown (issue 38).

${slowTable}

Main-thread work by kind (Lighthouse's mainthread-work-breakdown, ms at the slowdown):

${breakdownTable}

${scriptsTable}

Targets (issue 38: performance ≥ ${TARGET.performance} at 4× on every route, TBT ≤ ${TARGET.tbtAt6} ms at ${SLOW}×; 100 in the other categories): ${misses.length ? `missed by\n\n${misses.join('\n')}` : 'all met.'}${farSection}
<!-- audit:end -->`;
}

async function writeSummary(section: string) {
  const file = 'BENCHMARKS.md';
  const text = await readFile(file, 'utf8');
  const marked = /<!-- audit:start -->[\s\S]*<!-- audit:end -->/;
  await writeFile(
    file,
    marked.test(text) ? text.replace(marked, section) : `${text.trimEnd()}\n\n${section}\n`,
  );
}

await main();
process.exit(0); // vite/workerd leave handles open
