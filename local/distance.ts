// Distance to the database, made visible locally (issue 25). Neon sits in one region, a shopper's
// Worker at the edge: every sequential database request is a trip of D ms. The local endpoint
// holds each request D/2 on the way in and D/2 on the way out (LOCAL_DB_LATENCY_MS), and keeps a
// log of its requests, so a test or the bench can count a page's trips and how many of them run
// one after another (the sequential depth, what the shopper waits for: depth × D).
import { LocalSetupError } from './setup-error.ts';

/** One request the endpoint answered: when it arrived and left (ms on the endpoint's clock). */
export type Trip = { seq: number; start: number; end: number };

/** LOCAL_DB_LATENCY_MS: a whole number of milliseconds, 0 (the default) to 10,000. */
export function latencyFromEnv(value = process.env.LOCAL_DB_LATENCY_MS): number {
  if (value === undefined || value.trim() === '') return 0;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 10_000) {
    throw new LocalSetupError(
      `LOCAL_DB_LATENCY_MS must be a whole number of milliseconds from 0 to 10000, not "${value}".`,
    );
  }
  return ms;
}

/**
 * How many of the trips ran one after another: the longest chain in which each trip starts after
 * the one before it ended (trips that overlap went out together). Greedy by earliest end, which
 * finds the longest such chain.
 */
export function sequentialDepth(trips: readonly Pick<Trip, 'start' | 'end'>[]): number {
  let depth = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const trip of [...trips].sort((a, b) => a.end - b.end)) {
    if (trip.start >= lastEnd) {
      depth += 1;
      lastEnd = trip.end;
    }
  }
  return depth;
}

/** The endpoint's record: the last `size` trips, and the distance it plays. */
export class TripLog {
  latencyMs: number;
  private readonly trips: Trip[] = [];
  private seq = 0;
  private readonly size: number;
  constructor(latencyMs: number, size = 10_000) {
    this.latencyMs = latencyMs;
    this.size = size;
  }
  /** Records a request as it arrives; the returned function records its end. */
  begin(): () => void {
    const trip = { seq: ++this.seq, start: performance.now(), end: Number.NaN };
    return () => {
      trip.end = performance.now();
      this.trips.push(trip);
      if (this.trips.length > this.size) this.trips.shift();
    };
  }
  /** The trips ended since `after` (a seq from an earlier answer), and the newest seq. */
  since(after: number): { seq: number; trips: Trip[] } {
    return { seq: this.seq, trips: this.trips.filter((trip) => trip.seq > after) };
  }
}

/** Holds a request for half the distance (on its way in, or on its way out). */
export function halfTrip(log: TripLog): Promise<void> {
  const ms = log.latencyMs / 2;
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * A client of the endpoint's record, for tests and the bench: `mark()` before the work, then
 * `since(mark)` for its trips, their count and depth; `setLatency(ms)` changes the distance.
 */
export function tripsOf(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const base = `http://${url.host}`;
  const headers = { 'neon-connection-string': databaseUrl };
  const read = async (after: number) => {
    const answer = await fetch(`${base}/trips?after=${after}`, { headers });
    if (!answer.ok) throw new Error(`the endpoint's trips answered ${answer.status}`);
    return (await answer.json()) as { seq: number; trips: Trip[] };
  };
  return {
    async mark(): Promise<number> {
      return (await read(Number.MAX_SAFE_INTEGER)).seq;
    },
    async since(mark: number) {
      const { trips } = await read(mark);
      return { trips, count: trips.length, depth: sequentialDepth(trips) };
    },
    async setLatency(ms: number): Promise<void> {
      const answer = await fetch(`${base}/latency`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
      if (!answer.ok) throw new Error(`the endpoint's latency answered ${answer.status}`);
    },
  };
}
