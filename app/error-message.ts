/** The server's own words for a failure it did not explain (server/trpc.ts UNEXPECTED_ERROR). */
export const UNEXPECTED = 'An unexpected error occurred.';

/**
 * The text a screen shows for a failed call, one rule for every screen:
 * - the server answered (a refusal, or its masked 500): its message, which is written for people;
 * - it did not (offline, a gateway's page): `fallback`, the screen's own "could not" text;
 * - no `fallback` (a route's error view): the error's own message, else UNEXPECTED. A route's view
 *   may hold the error of the server's render, rebuilt in the browser as a plain Error, no longer
 *   a TRPCClientError, and must read as it did on the server.
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (answered(error)) return error.message;
  if (fallback !== undefined) return fallback;
  return error instanceof Error && error.message ? error.message : UNEXPECTED;
}

/** A tRPC call the server answered: a TRPCClientError carries the server's `data` (not imported
 * here, so this module costs the pages that show a message nothing of the tRPC client). */
function answered(error: unknown): error is Error {
  return (
    error instanceof Error &&
    error.name === 'TRPCClientError' &&
    Boolean((error as { data?: unknown }).data) &&
    Boolean(error.message)
  );
}
