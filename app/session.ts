// Who is signed in, for the header, side menu and guarded screens. The session cookie is the
// truth: the server reads it (tRPC account.session, prefetched during SSR by the root route).
import { hashKey, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { createIsomorphicFn } from '@tanstack/react-start';
import { getRequestHeaders } from '@tanstack/react-start/server';
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { useCallback } from 'react';
import type { LessData } from '#core/less-data.ts';
import { sessionCookieIn } from '#core/settings-rules.ts';
import type { SessionUser } from '#server/auth.ts';
import type { AppRouter } from '#server/routers/index.ts';
import { authCall } from './auth-client';
import { pageTitle } from './seo';
import { useTRPC } from './trpc-client';

export type { SessionUser };

/** The router's context (app/router.tsx): what loaders, guards and heads read the session from,
 * and why the page is made light (app/light-page.ts). */
export type ShopContext = {
  queryClient: QueryClient;
  trpc: TRPCOptionsProxy<AppRouter>;
  lessData: LessData;
};

/**
 * Whether the shopper may be signed in, known without asking the database: on the server, the
 * page's request carries a session cookie; in the browser, the session read earlier names someone.
 */
const mayBeSignedIn = createIsomorphicFn()
  .server((_context: ShopContext) => sessionCookieIn(getRequestHeaders().get('cookie')) !== null)
  .client((context: ShopContext) =>
    Boolean(context.queryClient.getQueryData(context.trpc.account.session.queryKey())),
  );

/**
 * A loader's session, with the signed-in shopper's own queries (`own`) asked for beside it, not
 * after it: the server starts them at once as the shopper this cookie was last read as, and keeps
 * their answers only if the session agrees (decision 0054). A visitor's page asks for nothing.
 */
export async function withSession(
  context: ShopContext,
  own: () => Promise<unknown>[] = () => [],
): Promise<SessionUser | null> {
  const early = mayBeSignedIn(context);
  const [user] = await Promise.all([
    context.queryClient
      .ensureQueryData(context.trpc.account.session.queryOptions())
      .catch(() => null),
    ...(early ? own() : []),
  ]);
  if (user && !early) await Promise.all(own());
  return user;
}

export function useSession(): { user: SessionUser | null; isPending: boolean } {
  const trpc = useTRPC();
  const query = useQuery(trpc.account.session.queryOptions(undefined, { staleTime: 60_000 }));
  return { user: query.data ?? null, isPending: query.isPending };
}

/** Re-reads the session (after login) and drops account data cached for another person. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return useCallback(async () => {
    const session = trpc.account.session.queryKey();
    queryClient.removeQueries({
      queryKey: trpc.account.pathKey(),
      predicate: (query) => hashKey(query.queryKey) !== hashKey(session),
    });
    // Refetched in place, so everything watching the session sees the new shopper at once.
    await queryClient.fetchQuery({ ...trpc.account.session.queryOptions(), staleTime: 0 });
  }, [queryClient, trpc]);
}

/** Signs out; resolves with null on success or the server's message. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return useCallback(async (): Promise<string | null> => {
    const result = await authCall('/sign-out');
    if (!result.ok) return result.failure.message ?? 'Unknown error';
    // Set the session in place (the header and menu watch that query), then drop the rest of
    // the account data: removing the session query too would leave its watchers on a stale copy.
    const session = trpc.account.session.queryKey();
    queryClient.setQueryData(session, null);
    queryClient.removeQueries({
      queryKey: trpc.account.pathKey(),
      predicate: (query) => hashKey(query.queryKey) !== hashKey(session),
    });
    return null;
  }, [queryClient, trpc]);
}

/** A route's beforeLoad for screens only visitors need (/login, /register): signed in → `/`. */
export async function homeIfSignedIn({ context }: { context: ShopContext }) {
  const user = await context.queryClient
    .ensureQueryData(context.trpc.account.session.queryOptions())
    .catch(() => null);
  if (user) throw redirect({ to: '/' });
}

/**
 * The head of a screen that shows the signed-in shopper's own things (cart, checkout, orders,
 * account). A crawler never has a session: what it can be shown there (an empty cart, a sign-in
 * prompt) is `noindex`; the shopper's own page carries no robots rule, as no crawler receives it.
 */
export const privatePageHead =
  (title: string) =>
  ({ match }: { match: { context: ShopContext } }) => {
    const { queryClient, trpc } = match.context;
    const signedIn = Boolean(queryClient.getQueryData(trpc.account.session.queryKey()));
    return {
      meta: [
        { title: pageTitle(title) },
        ...(signedIn ? [] : [{ name: 'robots', content: 'noindex' }]),
      ],
    };
  };
