// Calls the app's tRPC router the two ways the shop does: in-process (as SSR does) and over the
// fetch adapter (as the browser does, with the error formatter shoppers see).
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Db } from '../../db/client.ts';
import { appRouter } from '../../server/routers/index.ts';
import { createCallerFactory } from '../../server/trpc.ts';

export function callerFor(db: Db, headers = new Headers()) {
  return createCallerFactory(appRouter)({ db, headers });
}

/** A GET query over HTTP; returns the status and the JSON body (the shopper-visible error). */
export async function queryOverHttp(db: Db, path: string, input?: unknown) {
  const url = new URL(`http://shop.test/api/trpc/${path}`);
  if (input !== undefined) url.searchParams.set('input', JSON.stringify(input));
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: new Request(url),
    router: appRouter,
    createContext: () => ({ db, headers: new Headers() }),
  });
  return { status: response.status, body: (await response.json()) as TrpcBody };
}

type TrpcBody = {
  result?: { data: unknown };
  error?: {
    message: string;
    code: number;
    data: { code: string; httpStatus: number; stack?: string };
  };
};
