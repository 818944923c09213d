import { createIsomorphicFn } from '@tanstack/react-start';
import { getRequestHeaders } from '@tanstack/react-start/server';
import { createTRPCClient, httpBatchStreamLink, unstable_localLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { type AppRouter, appRouter } from '#server/routers/index.ts';
import { createWorkerContext } from '#server/worker-context.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** What each procedure answers, as the client receives it (e.g. `ApiOutput['account']['profile']`). */
export type ApiOutput = inferRouterOutputs<AppRouter>;

/** Calls one HTTP request may carry: the server refuses larger batches, the browser splits them. */
export const MAX_CALLS_PER_BATCH = 20;

/** During SSR the router runs in-process; in the browser, batched and streamed over HTTP. */
export const makeTRPCClient = createIsomorphicFn()
  .server(() =>
    createTRPCClient<AppRouter>({
      links: [
        unstable_localLink({
          router: appRouter,
          createContext: async () => createWorkerContext(new Headers(getRequestHeaders())),
        }),
      ],
    }),
  )
  .client(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchStreamLink({ url: '/api/trpc', maxItems: MAX_CALLS_PER_BATCH })],
    }),
  );
