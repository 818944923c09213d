// The boutique's desk (issue 22): procedures under `desk.*`, for the shop's staff and owner
// (deskProcedure, ownerProcedure in server/trpc.ts). Each part of the desk keeps its procedures
// in its own file under desk/; their names are one flat namespace (desk.saveProduct, …).
import { router } from '../trpc.ts';
import { catalogueDesk } from './desk/catalogue.ts';
import { deliveryDesk } from './desk/delivery.ts';
import { ordersDesk } from './desk/orders.ts';
import { photosDesk } from './desk/photos.ts';
import { shopDesk } from './desk/shop.ts';
import { spreadsheetDesk } from './desk/spreadsheet.ts';
import { stockDesk } from './desk/stock.ts';

export const deskRouter = router({
  ...catalogueDesk,
  ...photosDesk,
  ...stockDesk,
  ...spreadsheetDesk,
  ...shopDesk,
  ...deliveryDesk,
  ...ordersDesk,
});
