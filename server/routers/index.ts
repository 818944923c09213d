import { router } from '../trpc.ts';
import { accountRouter } from './account.ts';
import { cartRouter } from './cart.ts';
import { catalogueRouter } from './catalogue.ts';
import { chatRouter } from './chat.ts';
import { checkoutRouter } from './checkout.ts';
import { contactRouter } from './contact.ts';
import { ordersDesk } from './desk/orders.ts';
import { deskRouter } from './desk.ts';
import { ordersRouter } from './orders.ts';
import { paymentsRouter } from './payments.ts';

export const appRouter = router({
  account: accountRouter,
  cart: cartRouter,
  catalogue: catalogueRouter,
  chat: chatRouter,
  checkout: checkoutRouter,
  contact: contactRouter,
  desk: deskRouter,
  // The desk's orders and money under their first name (`operator.markPaid`, …): clients rely
  // on it. The same procedures as desk.*, so both names always answer alike.
  operator: router(ordersDesk),
  orders: ordersRouter,
  payments: paymentsRouter,
});

export type AppRouter = typeof appRouter;
