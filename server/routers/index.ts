import { router } from '../trpc.ts';
import { catalogueRouter } from './catalogue.ts';
import { contactRouter } from './contact.ts';

export const appRouter = router({
  catalogue: catalogueRouter,
  contact: contactRouter,
});

export type AppRouter = typeof appRouter;
