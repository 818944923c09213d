// The Worker's entry: TanStack Start serves pages, /api/trpc and /api/auth behind the front
// layer (server/http: 405s, body limits, security headers with the page's CSP nonce); the Cron
// Trigger runs each area's sweep (server/scheduled.ts).
import { waitUntil } from 'cloudflare:workers';
import handler from '@tanstack/react-start/server-entry';
import { type LessData, lessDataAsked } from '#core/less-data.ts';
import { serveShop } from '#server/http/shop-http.ts';
import { runScheduledSweeps } from '#server/scheduled.ts';
import { catalogueVersion } from '#server/services/catalogue-version.ts';
import {
  createWorkerContext,
  shopEnv,
  workerDb,
  workerOwnOrigins,
} from '#server/worker-context.ts';

declare global {
  interface ImportMetaEnv {
    /** This build's id (vite.config.ts): part of every edge-cache key. */
    readonly DUUKA_BUILD: string;
  }
}

declare module '@tanstack/react-start' {
  interface Register {
    /** Read by getRouter (getGlobalStartContext): the nonce to stamp on inline scripts, and
     * whether the page is made light (Save-Data or "Use less data", core/less-data.ts). */
    server: { requestContext: { cspNonce: string; lessData: LessData } };
  }
}

export default {
  fetch(request) {
    const app = (req: Request, cspNonce: string) =>
      handler.fetch(req, { context: { cspNonce, lessData: lessDataAsked(req.headers) } });
    return serveShop(request, app, {
      dev: import.meta.env.DEV,
      ownOrigins: workerOwnOrigins(),
      pages: import.meta.env.DEV ? undefined : pageCache(),
    });
  },
  scheduled(_controller, _env, execution) {
    execution.waitUntil(runScheduledSweeps(createWorkerContext(new Headers())));
  },
} satisfies ExportedHandler<Env>;

/** The edge cache for anonymous pages (server/http/page-cache.ts); a configuration problem turns it
 * off, and the app's own error page says what is wrong. */
function pageCache() {
  try {
    return {
      // Workers' CacheStorage has `default` (the DOM typing in this project's lib does not).
      cache: (caches as unknown as { default: Cache }).default,
      seconds: Number(shopEnv().PAGE_CACHE_SECONDS),
      build: import.meta.env.DUUKA_BUILD,
      keep: waitUntil,
      // Part of every key (decision 0044): a desk change shows at once.
      version: async () => catalogueVersion(workerDb()),
    };
  } catch {
    return undefined;
  }
}
