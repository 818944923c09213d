import { createIsomorphicFn } from '@tanstack/react-start';
import { getRequestHeaders } from '@tanstack/react-start/server';
import {
  createTRPCClient,
  httpBatchLink,
  httpBatchStreamLink,
  splitLink,
  unstable_localLink,
} from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { type AppRouter, appRouter } from '#server/routers/index.ts';
import { createWorkerContext } from '#server/worker-context.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** What each procedure answers, as the client receives it (e.g. `ApiOutput['account']['profile']`). */
export type ApiOutput = inferRouterOutputs<AppRouter>;

/** Calls one HTTP request may carry: the server refuses larger batches, the browser splits them. */
export const MAX_CALLS_PER_BATCH = 20;

/**
 * During SSR the router runs in-process; in the browser, batched over HTTP. Only the assistant's
 * reply is streamed (its text arrives as it is written): a streamed batch is cut off by its own
 * reader once the last answer is in, which the browser reports as a failed request
 * (net::ERR_ABORTED) on every call; a plain batch is read to its end.
 */
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
      links: [
        splitLink({
          condition: (op) => op.path === 'chat.send',
          true: httpBatchStreamLink({ url: '/api/trpc', maxItems: MAX_CALLS_PER_BATCH }),
          false: httpBatchLink({ url: '/api/trpc', maxItems: MAX_CALLS_PER_BATCH }),
        }),
      ],
    }),
  );
