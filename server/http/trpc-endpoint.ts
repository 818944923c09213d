// The tRPC endpoint, /api/trpc/* (app/routes/api/trpc/$.ts; the integration tests call it the
// same way): the origin and JSON rule again (decision 0038), then tRPC's fetch adapter, with
// answers labelled so workerd passes them on as they are.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { MAX_CALLS_PER_BATCH } from '#core/requests.ts';
import type { Context } from '../context.ts';
import { appRouter } from '../routers/index.ts';
import { endpointError } from './endpoints.ts';
import { foreignWrite } from './own-origin.ts';

const TRPC = { kind: 'trpc' } as const;

export async function serveTrpc(
  request: Request,
  options: {
    /** The shop's own origins: mutations from anywhere else are refused here too. */
    ownOrigins: readonly string[];
    createContext: () => Context | Promise<Context>;
  },
): Promise<Response> {
  // The front layer refused this already, unless it misread the path: refused again here.
  const refusal = foreignWrite(request, TRPC, options.ownOrigins);
  if (refusal) return endpointError(TRPC, refusal.status, refusal.message);
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    // A bigger batch answers 400 before any call runs (1,000 shop calls once made 22 MB).
    maxBatchSize: MAX_CALLS_PER_BATCH,
    createContext: options.createContext,
  });
  // workerd compresses and buffers `application/json` whole: label streams as JSON lines.
  const streamed = response.ok && request.headers.get('trpc-accept') === 'application/jsonl';
  // Errors tRPC raises before any call runs (batch too big, wrong content type) come as text/plain.
  const plainError =
    !response.ok && /^text\/plain/.test(response.headers.get('content-type') ?? '');
  if (!streamed && !plainError) return response;
  const headers = new Headers(response.headers);
  headers.set('content-type', streamed ? 'application/jsonl' : 'application/json');
  if (streamed) headers.delete('content-length');
  return new Response(response.body, { status: response.status, headers });
}
