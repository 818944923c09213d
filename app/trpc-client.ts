import { createIsomorphicFn } from '@tanstack/react-start';
import { getRequest } from '@tanstack/react-start/server';
import { createTRPCClient, httpBatchStreamLink, splitLink, unstable_localLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { MAX_CALLS_PER_BATCH } from '#core/requests.ts';
import { type AppRouter, appRouter } from '#server/routers/index.ts';
import { createWorkerContext } from '#server/worker-context.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** What each procedure answers, as the client receives it (e.g. `ApiOutput['account']['profile']`). */
export type ApiOutput = inferRouterOutputs<AppRouter>;

/**
 * During SSR the router runs in-process; in the browser, batched and streamed over HTTP. A streamed
 * batch's reader (@trpc/client 11) aborts its own fetch as soon as the last answer is in, before
 * the response's end is read, which the browser reports as a failed request (net::ERR_ABORTED) on
 * every call (decision 0050). Calls are never cancelled otherwise (queries are not aborted on
 * unmount), so their fetch is not given that signal and reads the answer to its end. Only the
 * assistant's reply keeps it: closing the chat stops the reply.
 */
const readToTheEnd: typeof fetch = (input, init) => fetch(input, { ...init, signal: null });

export const makeTRPCClient = createIsomorphicFn()
  .server(() =>
    createTRPCClient<AppRouter>({
      links: [
        unstable_localLink({
          router: appRouter,
          // One session read for the whole page, whichever loaders ask (decision 0054).
          createContext: async () => {
            const page = getRequest();
            return createWorkerContext(page.headers, page);
          },
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
          false: httpBatchStreamLink({
            url: '/api/trpc',
            maxItems: MAX_CALLS_PER_BATCH,
            fetch: readToTheEnd,
          }),
        }),
      ],
    }),
  );
