// Client JS per route, within its budget (budgets.json): the gzip size of every script a route's
// server-rendered page loads (its scripts and module preloads, and their static imports), from
// the production build. Code that only some screens need must load only there.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import budgets from '../../budgets.json' with { type: 'json' };
import { shop } from '../support/shop.ts';
import { sessionCookie, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const shopUrl = shop().url;
let cookie = '';

beforeAll(async () => {
  const shopper = await verifiedShopper(db, 'Budget Shopper', { phone: '+256772123459' });
  cookie = await sessionCookie(shopper);
});

const sizes = new Map<string, { gzip: number; imports: string[] }>();
async function script(path: string) {
  const known = sizes.get(path);
  if (known) return known;
  const source = await (await fetch(new URL(path, shopUrl))).text();
  // Static imports only (import … from "./x.js" / import "./x.js"); import() loads on demand.
  const imports = [...source.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)].map(
    (m) => new URL(m[1] ?? '', new URL(path, shopUrl)).pathname,
  );
  const entry = { gzip: gzipSync(source).length, imports };
  sizes.set(path, entry);
  return entry;
}

/** The gzip bytes of every script the page at `route` loads before it is interactive. */
async function clientJs(route: string, signedIn: boolean) {
  const html = await (
    await fetch(new URL(route, shopUrl), { headers: signedIn ? { cookie } : {} })
  ).text();
  const queue = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
  const seen = new Set<string>();
  let total = 0;
  while (queue.length) {
    const path = queue.shift() ?? '';
    if (seen.has(path)) continue;
    seen.add(path);
    const { gzip, imports } = await script(path);
    total += gzip;
    queue.push(...imports);
  }
  return { kib: Math.round((total / 1024) * 10) / 10, files: seen.size };
}

describe('client JS budgets', () => {
  const measured: Record<string, number> = {};
  afterAll(() => console.log('client JS (KiB gzip):', JSON.stringify(measured)));
  for (const [route, { kib: budget, signedIn }] of Object.entries(budgets.routes)) {
    it(`${route} loads at most ${budget} KiB of JS (gzip)`, async () => {
      const { kib, files } = await clientJs(route, signedIn);
      measured[route] = kib;
      expect(files).toBeGreaterThan(0);
      expect(kib).toBeLessThanOrEqual(budget);
    });
  }
});
