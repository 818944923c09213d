// Request body limits, applied before any route reads a body: refused up front by
// Content-Length, and counted while read so a chunked (or lying) body stops at the limit.

/** True when the request declares a body longer than the limit (no header: chunked). */
export function declaredTooLarge(request: Request, limit: number): boolean {
  const declared = Number(request.headers.get('content-length') ?? 0);
  return Number.isFinite(declared) && declared > limit;
}

export class BodyTooLarge extends Error {
  constructor(limit: number) {
    super(`Request body over ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * How much of a body is read, at most, before answering. Under workerd (`npm start`,
 * `npm run preview`) a request body left unread makes it close the connection with a reset once
 * the answer is sent, and the local proxy's next request on that connection failed with 500
 * "fetch failed". Receiving the whole body before answering keeps the connection usable; past
 * this allowance the body is cancelled. Only bytes within the limit are kept for the route.
 */
// At 8 MiB, 20 and 40 MiB bodies were still cut and the local proxy then failed 1 run in ~5 under
// load: 64 MiB covers what a browser form or a script sends before giving up (Cloudflare refuses
// bodies past 100 MB at the edge); reading and discarding costs almost no CPU.
export const DRAIN_ALLOWANCE = 64 * 1024 * 1024;

/** A request whose body is counted as the route reads it; see `settle` for the unread rest. */
export type LimitedRequest = {
  request: Request;
  /** True once the body went past the limit (a read of it fails with BodyTooLarge). */
  exceeded(): boolean;
  /**
   * Before answering: receives what the route has not read yet. Within the limit it is kept
   * for the route (a streamed tRPC answer reads its input after the answer has started);
   * past the limit it is discarded, up to DRAIN_ALLOWANCE, then the body is cancelled.
   */
  settle(): Promise<void>;
};

export function limitBody(
  request: Request,
  limit: number,
  allowance = DRAIN_ALLOWANCE,
): LimitedRequest {
  const source = request.body;
  if (!source) return { request, exceeded: () => false, settle: async () => {} };
  const reader = source.getReader();
  /** Received from the client, not yet handed to the route (in order). */
  const kept: Uint8Array[] = [];
  let received = 0;
  let done = false;

  /** Receives one chunk: kept while within the limit, else discarded; cancelled past allowance. */
  async function receiveOnce(): Promise<void> {
    if (done) return;
    try {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        return;
      }
      received += chunk.value.byteLength;
      if (received <= limit) kept.push(chunk.value);
      else if (received > Math.max(limit, allowance)) {
        done = true;
        await reader.cancel().catch(() => {});
      }
    } catch (error) {
      done = true; // the client went away
      throw error;
    }
  }
  // workerd's request stream takes one read at a time: each waits for the one before.
  let lastRead: Promise<unknown> = Promise.resolve();
  const receive = () => {
    const next = lastRead.then(receiveOnce, receiveOnce);
    lastRead = next.catch(() => {});
    return next;
  };

  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (kept.length === 0 && received <= limit && !done) await receive();
        const chunk = kept.shift();
        if (chunk) controller.enqueue(chunk);
        else if (received > limit) controller.error(new BodyTooLarge(limit));
        else controller.close();
      },
      // No cancel(): a route that gives up on the body leaves the rest to `settle`.
    },
    { highWaterMark: 0 }, // read only when the route asks
  );

  return {
    // Built from its parts: the original body stays ours to count and to receive.
    request: new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: counted,
      signal: request.signal,
      duplex: 'half',
    } as RequestInit),
    exceeded: () => received > limit,
    async settle() {
      try {
        while (!done) await receive();
      } catch {
        // The client went away: nothing left to receive.
      }
    },
  };
}
