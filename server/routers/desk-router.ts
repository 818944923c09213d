// The boutique's desk (issue 22): procedures under `desk.*`, for the shop's staff and owner
// (deskProcedure, ownerProcedure in server/trpc.ts). Each part of the desk keeps its procedures
// in its own file under desk/; their names are one flat namespace (desk.saveProduct, …).
import { router } from '../trpc.ts';
import { campaignsDesk } from './desk/desk-campaigns-router.ts';
import { catalogueDesk } from './desk/desk-catalogue-router.ts';
import { creditDesk } from './desk/desk-credit-router.ts';
import { customersDesk } from './desk/desk-customers-router.ts';
import { deliveryDesk } from './desk/desk-delivery-router.ts';
import { homeDesk } from './desk/desk-home-router.ts';
import { inboxDesk } from './desk/desk-inbox-router.ts';
import { offersDesk } from './desk/desk-offers-router.ts';
import { orderDesk } from './desk/desk-order-router.ts';
import { ordersDesk } from './desk/desk-orders-router.ts';
import { phoneOrdersDesk } from './desk/desk-phone-orders-router.ts';
import { photosDesk } from './desk/desk-photos-router.ts';
import { refundsDesk } from './desk/desk-refunds-router.ts';
import { returnsDesk } from './desk/desk-returns-router.ts';
import { shopDesk } from './desk/desk-shop-router.ts';
import { spreadsheetDesk } from './desk/desk-spreadsheet-router.ts';
import { stockDesk } from './desk/desk-stock-router.ts';
import { storeDetailsDesk } from './desk/desk-store-details-router.ts';

export const deskRouter = router({
  ...catalogueDesk,
  ...photosDesk,
  ...stockDesk,
  ...spreadsheetDesk,
  ...shopDesk,
  ...deliveryDesk,
  ...ordersDesk,
  ...orderDesk,
  ...phoneOrdersDesk,
  ...customersDesk,
  ...storeDetailsDesk,
  ...homeDesk,
  ...offersDesk,
  ...campaignsDesk,
  ...creditDesk,
  ...refundsDesk,
  ...returnsDesk,
  ...inboxDesk,
});
