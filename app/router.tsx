import { createRouter } from '@tanstack/react-router';
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query';
import { getGlobalStartContext } from '@tanstack/react-start';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { AppRouter } from '#server/routers/index.ts';
import { NotFound } from './components/NotFound';
import { pageLessData } from './light-page';
import { makeQueryClient } from './query-client';
import { routeTree } from './routeTree.gen';
import { makeTRPCClient, TRPCProvider } from './trpc-client';

export function getRouter() {
  const queryClient = makeQueryClient();
  const trpcClient = makeTRPCClient();
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
  const router = createRouter({
    routeTree,
    // lessData: whether the page is made light (app/light-page.ts).
    context: { queryClient, trpc, lessData: pageLessData() },
    scrollRestoration: true,
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFound,
    // The page's CSP nonce from the Worker's front layer (app/server.ts), stamped on every inline
    // script; in the browser the router reads it back from the page's csp-nonce meta tag.
    ssr: { nonce: getGlobalStartContext()?.cspNonce },
    Wrap: ({ children }) => (
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    ),
  });
  setupRouterSsrQueryIntegration({ router, queryClient });
  return router;
}
