import { router } from '../trpc.ts';
import { accountRouter } from './account.ts';
import { catalogueRouter } from './catalogue.ts';
import { contactRouter } from './contact.ts';

export const appRouter = router({
  account: accountRouter,
  catalogue: catalogueRouter,
  contact: contactRouter,
});

export type AppRouter = typeof appRouter;
