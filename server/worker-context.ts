// Builds the tRPC context inside the Worker, from its bindings (never imported by Node tests).
import { env } from 'cloudflare:workers';
import { createDb, type Db } from '../db/client.ts';
import type { Context } from './trpc.ts';

let db: Db | undefined;

export function createWorkerContext(headers: Headers): Context {
  db ??= createDb(env.DATABASE_URL);
  return { db, headers };
}
