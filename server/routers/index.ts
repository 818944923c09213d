import { router } from '../trpc.ts';
import { accountRouter } from './account-router.ts';
import { cartRouter } from './cart-router.ts';
import { catalogueRouter } from './catalogue-router.ts';
import { chatRouter } from './chat-router.ts';
import { checkoutRouter } from './checkout-router.ts';
import { contactRouter } from './contact-router.ts';
import { ordersDesk } from './desk/desk-orders-router.ts';
import { deskRouter } from './desk-router.ts';
import { giftCardsRouter } from './gift-cards-router.ts';
import { ordersRouter } from './orders-router.ts';
import { paymentsRouter } from './payments-router.ts';
import { returnsRouter } from './returns-router.ts';
import { stopLinkRouter } from './stop-link-router.ts';

export const appRouter = router({
  account: accountRouter,
  cart: cartRouter,
  catalogue: catalogueRouter,
  chat: chatRouter,
  checkout: checkoutRouter,
  contact: contactRouter,
  desk: deskRouter,
  giftCards: giftCardsRouter,
  // The desk's orders and money under their first name (`operator.markPaid`, …): clients rely
  // on it. The same procedures as desk.*, so both names always answer alike.
  operator: router(ordersDesk),
  orders: ordersRouter,
  payments: paymentsRouter,
  returns: returnsRouter,
  stopLink: stopLinkRouter,
});

export type AppRouter = typeof appRouter;
