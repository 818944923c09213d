import { router } from '../trpc.ts';
import { catalogueRouter } from './catalogue.ts';

export const appRouter = router({
  catalogue: catalogueRouter,
});

export type AppRouter = typeof appRouter;
