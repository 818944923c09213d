// The browser's and the server render's query cache, made one way. Queries stay fresh for 30 s,
// so a page moved to and back again does not ask twice. A desk change can change what shoppers
// see (a piece published, its price, its stock): once one succeeds, every catalogue answer kept
// here is stale, so the owner who just published a piece finds it on /search at once, whatever
// she searched before (issue 32; the edge cache follows the catalogue's version on the server).
import { MutationCache, QueryClient } from '@tanstack/react-query';

/** tRPC keys a query or mutation by its path first: [['desk', 'saveProduct']], [['catalogue', …]]. */
const CATALOGUE_QUERIES = [['catalogue']];

/**
 * Answers that a second asking cannot change: a refusal (not signed in, not allowed), nothing
 * there, or a question the server rejects. Retried, a staff member refused /desk/record waited
 * ~10 s on "Loading the record…" before reading "Only the shop’s owner can do this." (issue 34).
 */
const FINAL_CODES = ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'BAD_REQUEST'];

/**
 * Whether a failed query is asked again: never after a final answer (a TRPCClientError's
 * `data.code`), else up to three times, React Query's own default (offline, a 500).
 */
export const retryQuery = (failures: number, error: unknown): boolean =>
  !FINAL_CODES.includes((error as { data?: { code?: string } } | null)?.data?.code ?? '') &&
  failures < 3;

function isDeskChange(mutationKey: readonly unknown[] | undefined): boolean {
  const path = mutationKey?.[0];
  return Array.isArray(path) && path[0] === 'desk';
}

export function makeQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: 30_000, retry: retryQuery } },
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        if (!isDeskChange(mutation.options.mutationKey)) return;
        return queryClient.invalidateQueries({ queryKey: CATALOGUE_QUERIES });
      },
    }),
  });
  return queryClient;
}
