// Who is signed in, for the header, side menu and guarded screens. The session cookie is the
// truth: the server reads it (tRPC account.session, prefetched during SSR by the root route).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { SessionUser } from '#server/auth.ts';
import { authCall } from './auth-client';
import { useTRPC } from './trpc';

export type { SessionUser };

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
    queryClient.removeQueries({ queryKey: trpc.account.pathKey() });
    await queryClient.fetchQuery(trpc.account.session.queryOptions());
  }, [queryClient, trpc]);
}

/** Signs out; resolves with null on success or the server's message. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return useCallback(async (): Promise<string | null> => {
    const result = await authCall('/sign-out');
    if (!result.ok) return result.failure.message ?? 'Unknown error';
    queryClient.removeQueries({ queryKey: trpc.account.pathKey() });
    queryClient.setQueryData(trpc.account.session.queryKey(), null);
    return null;
  }, [queryClient, trpc]);
}
