import { fileURLToPath } from 'node:url';
import { cloudflare } from '@cloudflare/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { tanstackStart } from '@tanstack/react-start/plugin/vite';
import viteReact from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * One id per build, kept in the Worker: the edge cache stores pages per build, so a page cached
 * before a deploy (naming the last build's script files, gone after it) is never served after it.
 */
const BUILD_ID = Date.now().toString(36);

/** A file of this project, as the absolute path a resolver answers. */
const own = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The Worker carries only code it can run (issue 25: the bundle at or below 1,000 KiB gzip;
 * docs/worker-bundle.md weighs each part):
 * - React's edge renderer alone: `react-dom/server` on workerd also loads the legacy string
 *   renderer (211 KiB at startup), which nothing in the shop calls;
 * - no AI Gateway client: the AI SDK imports it for string model ids, and the shop always
 *   passes Google's model object (server/services/chat/assistant.ts).
 */
function workerOnlyWhatRuns(): Plugin {
  const replaced: Record<string, string> = {
    'react-dom/server': own('./node_modules/react-dom/cjs/react-dom-server.edge.production.js'),
    '@ai-sdk/gateway': own('./server/stubs/ai-gateway.ts'),
  };
  return {
    name: 'duuka:worker-only-what-runs',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    enforce: 'pre',
    resolveId: (id) => replaced[id],
  };
}

export default defineConfig({
  define: { 'import.meta.env.DUUKA_BUILD': JSON.stringify(BUILD_ID) },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    // The dev server serves the project root: never the database, Wrangler's state, the local
    // Node or secrets, however asked (`?raw`, `/@fs/`). A deny list replaces Vite's own, so its
    // defaults (.env, keys, .git...) are repeated here.
    fs: {
      deny: [
        ...['.env', '.env.*', '.dev.vars', '.dev.vars.*', '.npmrc', '.yarnrc.yml'],
        ...['*.{crt,pem,key,p12,pfx,cer,der}', '**/.git/**'],
        ...['**/.data/**', '**/.wrangler/**', '**/.tools/**'],
      ],
    },
  },
  build: { sourcemap: !!process.env.SOURCEMAP },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [{ name: 'shop', tags: ['$initial'] }],
            },
          },
        },
      },
    },
    // The Worker is minified (names kept: error classes and stack traces read them) and ships
    // with its source maps, which count toward neither its size nor its startup.
    ssr: {
      build: { minify: true, sourcemap: true, rolldownOptions: { output: { keepNames: true } } },
    },
  },
  preview: { port: Number(process.env.PORT ?? 3000), strictPort: true },
  plugins: [
    cloudflare({
      viteEnvironment: { name: 'ssr' },
      // No debugger port unless asked (INSPECTOR_PORT=9229 npm start): another program holding
      // 9229 printed a warning at every start.
      inspectorPort: process.env.INSPECTOR_PORT ? Number(process.env.INSPECTOR_PORT) : false,
    }),
    tailwindcss(),
    tanstackStart({
      srcDirectory: 'app',
      // Server-only code (Worker, database, local tooling) can never reach the client bundle.
      importProtection: {
        client: { files: ['**/*.server.*', 'server/**', 'db/**', 'local/**', 'scripts/**'] },
      },
    }),
    viteReact(),
    workerOnlyWhatRuns(),
  ],
});
