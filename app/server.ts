// The Worker's entry: TanStack Start serves pages, /api/trpc and /api/auth behind the front
// layer (server/http: 405s, body limits, security headers with the page's CSP nonce); queue and
// cron handlers join here as the areas that need them arrive.
import handler from '@tanstack/react-start/server-entry';
import { serveShop } from '#server/http/shop-http.ts';

declare module '@tanstack/react-start' {
  interface Register {
    /** Read by getRouter (getGlobalStartContext) to stamp the nonce on inline scripts. */
    server: { requestContext: { cspNonce: string } };
  }
}

export default {
  fetch(request) {
    return serveShop(request, (req, cspNonce) => handler.fetch(req, { context: { cspNonce } }), {
      dev: import.meta.env.DEV,
    });
  },
} satisfies ExportedHandler<Env>;
