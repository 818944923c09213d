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
 * How much of a body is read, at most, to discard what the route did not read. Under workerd
 * (`npm start`, `npm run preview`) a request body left unread makes it close the connection
 * with a reset once the answer is sent, and the local proxy's next request on that connection
 * failed with 500 "fetch failed". Reading the rest before answering keeps the connection
 * usable; past this allowance the body is cancelled (the route never sees more than its limit).
 */
export const DRAIN_ALLOWANCE = 8 * 1024 * 1024;

/** A request whose body is counted as the route reads it; see `settle` for the unread rest. */
export type LimitedRequest = {
  request: Request;
  /** True once the body went past the limit (the route's read failed with BodyTooLarge). */
  exceeded(): boolean;
  /** Before answering: reads and discards what the route left, up to DRAIN_ALLOWANCE. */
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
  let received = 0;
  let finished = false;
  let refused = false;

  /** The client's next chunk; null once the body ended or ran past the drain allowance. */
  async function readOnce(): Promise<Uint8Array | null> {
    if (finished) return null;
    try {
      const chunk = await reader.read();
      if (chunk.done) {
        finished = true;
        return null;
      }
      received += chunk.value.byteLength;
      if (received <= Math.max(limit, allowance)) return chunk.value;
    } catch (error) {
      finished = true;
      throw error;
    }
    finished = true;
    await reader.cancel().catch(() => {});
    return null;
  }
  // workerd's request stream takes one read at a time: reads wait for the one before.
  let lastRead: Promise<unknown> = Promise.resolve();
  const readChunk = () => {
    const next = lastRead.then(readOnce, readOnce);
    lastRead = next.catch(() => {});
    return next;
  };

  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await readChunk();
        refused = received > limit;
        if (refused) controller.error(new BodyTooLarge(limit));
        else if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
      // No cancel(): a route that gives up on the body leaves the rest to `settle`.
    },
    { highWaterMark: 0 }, // read only when the route asks
  );

  return {
    // Built from its parts: the original body stays ours to count and to drain.
    request: new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: counted,
      signal: request.signal,
      duplex: 'half',
    } as RequestInit),
    exceeded: () => refused,
    async settle() {
      try {
        while ((await readChunk()) !== null) {}
      } catch {
        // The client went away: nothing left to read.
      }
    },
  };
}
