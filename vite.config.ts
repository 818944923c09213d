import { cloudflare } from '@cloudflare/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { tanstackStart } from '@tanstack/react-start/plugin/vite';
import viteReact from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * One id per build, kept in the Worker: the edge cache stores pages per build, so a page cached
 * before a deploy (naming the last build's script files, gone after it) is never served after it.
 */
const BUILD_ID = Date.now().toString(36);

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
  ],
});
