// The shape of the code (docs/architecture.md), checked so that it holds without anyone
// remembering it: what each layer may import, and that no two files share a name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /^(app|core|db|server|local|scripts)\/.*\.(ts|tsx|mjs)$/.test(file))
  .filter((file) => file !== 'app/routeTree.gen.ts');
const source = files.filter((file) => !/\.test\.tsx?$/.test(file));

const ALIASES: Record<string, string> = {
  '#app/': 'app/',
  '#core/': 'core/',
  '#db/': 'db/',
  '#local/': 'local/',
  '#server/': 'server/',
};

/** The repository paths a file imports (its own modules only, not packages). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const [, spec] of text.matchAll(/(?:from|import|import\()\s*['"]([^'"]+)['"]/g)) {
    const alias = Object.keys(ALIASES).find((prefix) => spec?.startsWith(prefix));
    if (alias && spec) found.push(ALIASES[alias] + spec.slice(alias.length));
    else if (spec?.startsWith('.')) found.push(relative(root, resolve(root, dirname(file), spec)));
  }
  return found;
}

/** Where a path lives: its top folder (app, core, db, server, local, scripts, tests). */
const layer = (path: string) => path.split('/')[0] ?? '';

/** What each layer may import besides itself (the packages aside). */
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  db: ['core'],
  server: ['core', 'db'],
  app: ['core', 'db', 'server', 'local'],
  local: ['core', 'db', 'server'],
  scripts: ['core', 'db', 'server', 'local'],
};

describe('the shape of the code', () => {
  it('imports only down its layers: core needs nothing, db core, server core and db; nothing outside tests imports tests', () => {
    const wrong: string[] = [];
    for (const file of source) {
      for (const target of importsOf(file)) {
        const from = layer(file);
        const to = layer(target);
        if (to !== from && !MAY_IMPORT[from]?.includes(to)) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the screens’ parts in the browser: app/components import no server, database or local code', () => {
    const wrong = source
      .filter((file) => file.startsWith('app/components/'))
      .flatMap((file) => importsOf(file).map((target) => `${file} → ${target}`))
      .filter((pair) => /→ (server|db|local)\//.test(pair));
    expect(wrong).toEqual([]);
  });

  it('lets no service import the tRPC layer (services take a Pick of the context)', () => {
    const wrong = source
      .filter((file) => file.startsWith('server/services/'))
      .filter((file) => importsOf(file).includes('server/trpc.ts'));
    expect(wrong).toEqual([]);
  });

  it('gives no two files the same name (a route file is named by its URL, so routes may share one)', () => {
    const seen = new Map<string, string[]>();
    for (const file of source) {
      const name = basename(file).replace(/\.(ts|tsx|mjs)$/, '');
      if (name === 'index' || name === '$') continue;
      seen.set(name, [...(seen.get(name) ?? []), file]);
    }
    const shared = [...seen.values()]
      .filter((same) => same.length > 1)
      .filter((same) => !same.every((file) => file.startsWith('app/routes/')))
      .map((same) => same.join(' ~ '));
    expect(shared).toEqual([]);
  });
});
