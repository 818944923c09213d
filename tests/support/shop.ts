// The shop a browser test drives. The e2e setup (shop-server.ts) starts one shop per worker, each
// with its own database and fakes: the files running side by side never meet.
import { inject } from 'vitest';

export type Shop = {
  /** The preview server's address. */
  url: string;
  databaseUrl: string;
  /** The outside services' fakes: the Worker variables pointing at them (base URLs). */
  fakeEnv: Record<string, string>;
};

declare module 'vitest' {
  export interface ProvidedContext {
    shops: Shop[];
  }
}

/** This worker's shop: vitest numbers a group's workers 1 to its maxWorkers (VITEST_POOL_ID). */
export function shop(): Shop {
  const shops = inject('shops');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const own = shops[worker - 1];
  if (!own) throw new Error(`No shop for worker ${worker} of ${shops.length}`);
  return own;
}
