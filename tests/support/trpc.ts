// Calls the app's tRPC router the two ways the shop does: in-process (as SSR does) and over the
// fetch adapter behind the Worker's front layer (as the browser does: from the shop's own origin,
// with the error formatter shoppers see).
import type { Db } from '#db/client.ts';
import { memoryBucket } from '#local/fakes/r2-bucket.ts';
import { type Auth, type SessionReader, sessionUser } from '#server/auth.ts';
import { type Context, type ContextParts, createContext } from '#server/context.ts';
import { endpointError, endpointOf } from '#server/http/endpoints.ts';
import { foreignWrite } from '#server/http/own-origin.ts';
import { serveTrpc } from '#server/http/trpc-endpoint.ts';
import { appRouter } from '#server/routers/index.ts';
import type { AvatarStore } from '#server/services/avatar-service.ts';
import { createCallerFactory } from '#server/trpc.ts';
import { testAuth } from './accounts.ts';

/** The parts a test sets (server/context.ts); the rest are the test shop's own. */
type Extras = Partial<Omit<ContextParts, 'db' | 'headers' | 'session'>> & {
  /** The context serves one HTTP request: its session is read once (as in the Worker). */
  oneRequest?: boolean;
};

const auths = new WeakMap<Db, Auth>();
const buckets = new WeakMap<Db, AvatarStore>();
const photoBuckets = new WeakMap<Db, AvatarStore>();

/**
 * The context the Worker builds (server/context.ts), on the test database: the real auth (mails to
 * the outbox) and in-memory R2 buckets (avatars, photos), one of each per database unless the test
 * passes its own; nothing else configured unless the test says.
 */
export function testContext(db: Db, headers: Headers, extras: Extras = {}): Context {
  const auth = extras.auth ?? perDatabase(auths, db, testAuth);
  return createContext({
    db,
    headers,
    auth,
    // One request: read once (the factory's own reader), as the Worker does. A test's caller
    // (callerFor) is one context for many calls: it reads the session at every call, as a
    // browser's requests would.
    session: extras.oneRequest ? undefined : everyCall(auth, headers),
    avatars: extras.avatars ?? perDatabase(buckets, db, memoryBucket),
    photos: extras.photos ?? perDatabase(photoBuckets, db, memoryBucket),
    background: extras.background ?? inBackground,
    // No provider configured unless the test starts the fake providers (tests/support/payments.ts).
    payments: extras.payments ?? { providers: {}, callbackOrigin: 'http://shop.test' },
    // No gateway unless the test starts the fake one: texts are recorded as failed, not sent.
    sms: extras.sms ?? { gateway: null, adminPhone: null },
    bankDetails: extras.bankDetails ?? null,
    ownerEmails: extras.ownerEmails ?? [],
    // No key: the assistant answers in fallback mode unless the test starts the fake model.
    assistant: extras.assistant ?? {
      apiKey: null,
      model: 'gemini-2.5-flash',
      baseUrl: null,
      contact: { email: 'hello@duuka.ug', phone: '+256759301488' },
    },
    social: extras.social ?? [],
  });
}

/** A caller's session: read afresh at every call, as a browser's requests each would be. */
function everyCall(auth: Auth, headers: Headers): SessionReader {
  return { read: () => sessionUser(auth, headers), lastSeen: () => null, token: null };
}

/** Background work in tests runs at once; a failure is logged as the Worker would. */
function inBackground(work: Promise<unknown>): void {
  work.catch(logFailure);
}

function logFailure(error: unknown) {
  console.error('Background work failed', error);
}

function perDatabase<T>(made: WeakMap<Db, T>, db: Db, make: (db: Db) => T): T {
  const existing = made.get(db);
  if (existing) return existing;
  const fresh = make(db);
  made.set(db, fresh);
  return fresh;
}

/**
 * The router called in-process, as SSR calls it. Each call answers once the work it left for
 * after its answer (the Worker's waitUntil: a receipt saved, texts queued) has ended too, so a
 * test reads the database as it will be, unless the test takes that work itself (`background`).
 */
export function callerFor(db: Db, headers = new Headers(), extras: Extras = {}) {
  const after: Promise<unknown>[] = [];
  const background = extras.background ?? ((work: Promise<unknown>) => after.push(work));
  const caller = createCallerFactory(appRouter)(
    testContext(db, headers, { ...extras, background }),
  );
  return afterItsWork(caller, after);
}

/** Wraps tRPC's caller (functions all the way down): a call resolves after `after` has emptied. */
function afterItsWork<T extends object>(target: T, after: Promise<unknown>[]): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key);
      return typeof value === 'function' ? afterItsWork(value, after) : value;
    },
    async apply(call, self, args) {
      const answer = await Reflect.apply(call as (...a: unknown[]) => unknown, self, args);
      while (after.length > 0) for (const work of after.splice(0)) await work.catch(logFailure);
      return answer;
    },
  });
}

/** A GET query over HTTP (with the shopper's cookie when given); the status and the JSON body. */
export async function queryOverHttp(
  db: Db,
  path: string,
  input?: unknown,
  extras: HttpExtras = {},
) {
  return callOverHttp(db, 'query', path, input, extras);
}

/** A mutation over HTTP (POST), with the shopper's cookie and client IP when given. */
export async function mutateOverHttp(
  db: Db,
  path: string,
  input: unknown,
  extras: HttpExtras = {},
) {
  return callOverHttp(db, 'mutation', path, input, extras);
}

/** The shop's origin in tests: the front layer takes writes from it (BETTER_AUTH_URL). */
export const TEST_SHOP_ORIGIN = 'http://shop.test';

type HttpExtras = Extras & {
  cookie?: string;
  ip?: string;
  /** The page the browser says sent the request; default the shop's own, null: none sent. */
  origin?: string | null;
};

/**
 * A query (GET, input in the URL), a mutation (POST, input as the body) or a streamed mutation
 * (an async generator: POST as the browser's batch stream link sends it, read to its end) over
 * HTTP. A stream always answers 200 and carries a refusal inside: its status is the refusal's.
 */
export async function callOverHttp(
  db: Db,
  kind: 'query' | 'mutation' | 'stream',
  path: string,
  input: unknown,
  extras: HttpExtras = {},
) {
  const url = new URL(`http://shop.test/api/trpc/${path}`);
  const headers = new Headers();
  if (extras.cookie) headers.set('cookie', extras.cookie);
  if (extras.ip) headers.set('cf-connecting-ip', extras.ip);
  const origin = extras.origin === undefined ? TEST_SHOP_ORIGIN : extras.origin;
  if (origin !== null && kind !== 'query') headers.set('origin', origin);
  if (kind === 'query') {
    if (input !== undefined) url.searchParams.set('input', JSON.stringify(input));
    return send(db, new Request(url, { headers }), extras);
  }
  headers.set('content-type', 'application/json');
  if (kind === 'mutation') {
    const body = JSON.stringify(input);
    return send(db, new Request(url, { method: 'POST', headers, body }), extras);
  }
  url.searchParams.set('batch', '1');
  headers.set('trpc-accept', 'application/jsonl');
  const request = new Request(url, { method: 'POST', headers, body: JSON.stringify({ 0: input }) });
  const response = await handle(db, request, extras);
  const lines = (await response.text()).split('\n').filter(Boolean);
  const error = lines.map((line) => errorIn(JSON.parse(line))).find(Boolean);
  return error
    ? { status: error.data.httpStatus, body: { error } satisfies TrpcBody }
    : { status: response.status, body: { result: { data: lines } } satisfies TrpcBody };
}

/** The first tRPC error anywhere in a streamed line ({ message, code, data: { httpStatus } }). */
function errorIn(value: unknown): NonNullable<TrpcBody['error']> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = (value as { data?: { httpStatus?: unknown } }).data;
  if ('message' in value && typeof data?.httpStatus === 'number') {
    return value as NonNullable<TrpcBody['error']>;
  }
  for (const inner of Object.values(value)) {
    const found = errorIn(inner);
    if (found) return found;
  }
  return undefined;
}

/**
 * A POST to /api/trpc/{path} exactly as given (any body, any content type, any origin): what a
 * form on another site's page would send. Returns the status and the body as text.
 */
export async function postOverHttp(
  db: Db,
  path: string,
  init: { body: BodyInit; headers: Record<string, string> },
  extras: Extras & { frontLayer?: boolean } = {},
) {
  const request = new Request(`${TEST_SHOP_ORIGIN}/api/trpc/${path}`, {
    method: 'POST',
    headers: init.headers,
    body: init.body,
  });
  const response = await handle(db, request, extras);
  return { status: response.status, text: await response.text() };
}

/**
 * The front layer's origin and content-type rule (server/http/own-origin.ts; its body limits are
 * left out, so tests see tRPC's own answer to a large input), then the tRPC endpoint the Worker
 * serves (server/http/trpc-endpoint.ts; `frontLayer: false` goes to it straight, as a path the
 * front layer misread would).
 */
async function handle(db: Db, req: Request, extras: Extras & { frontLayer?: boolean }) {
  const endpoint = endpointOf(new URL(req.url));
  const refusal =
    extras.frontLayer === false ? null : foreignWrite(req, endpoint, [TEST_SHOP_ORIGIN]);
  if (refusal) return endpointError(endpoint, refusal.status, refusal.message);
  // The request's work after its answer (the Worker's waitUntil) ends before the test looks on.
  const after: Promise<unknown>[] = [];
  const background = extras.background ?? ((work: Promise<unknown>) => after.push(work));
  const response = await serveTrpc(req, {
    ownOrigins: [TEST_SHOP_ORIGIN],
    createContext: () => testContext(db, req.headers, { ...extras, background, oneRequest: true }),
  });
  const body = await response.arrayBuffer();
  for (const work of after) await work.catch(logFailure);
  return new Response(body, response);
}

async function send(db: Db, req: Request, extras: Extras) {
  const response = await handle(db, req, extras);
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
