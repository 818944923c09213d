// The desk's files over HTTP, for the shop's staff and owner only (401 signed out, 403 a
// customer): GET /api/desk/products.csv (the catalogue), /api/desk/orders.csv?from=&to= (every
// order, for the accountant) and /api/desk/orders/{id}/packing-slip.pdf. Built from their parts
// so tests call them directly.
import * as v from 'valibot';
import { TEXT } from '#core/account.ts';
import { ordersFileInput, PAPERWORK_TEXT } from '#core/desk-paperwork.ts';
import { DESK_TEXT, deskRoleOf } from '#core/desk-roles.ts';
import { receiptInput } from '#core/order-rules.ts';
import { sessionUser } from '../auth.ts';
import type { Context } from '../context.ts';
import { ordersFile, packingSlipFor } from '../services/desk-paperwork-service.ts';
import { catalogueFile } from '../services/desk-spreadsheet-service.ts';
import { packingSlipPdf } from '../services/packing-slip-pdf.ts';

type Deps = Pick<Context, 'db' | 'auth' | 'ownerEmails'>;

const refused = (status: 400 | 401 | 403 | 404, message: string) =>
  new Response(JSON.stringify({ message }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

const file = (body: string | Uint8Array, type: string, name: string, disposition = 'attachment') =>
  new Response(body as BodyInit, {
    headers: {
      'content-type': type,
      'content-disposition': `${disposition}; filename="${name}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });

/** The signed-in desk member, or the refusal to answer instead. */
async function deskOnly(deps: Deps, request: Request): Promise<Response | null> {
  const user = await sessionUser(deps.auth, request.headers);
  if (!user) return refused(401, TEXT.notAuthenticated);
  if (!deskRoleOf(user, deps.ownerEmails)) return refused(403, DESK_TEXT.deskOnly);
  return null;
}

export async function productsCsv(deps: Deps, request: Request, now = new Date()) {
  const refusal = await deskOnly(deps, request);
  if (refusal) return refusal;
  const catalogue = await catalogueFile(deps.db, now);
  return file(catalogue.text, 'text/csv; charset=utf-8', catalogue.fileName);
}

export async function ordersCsv(deps: Deps, request: Request, now = new Date()) {
  const refusal = await deskOnly(deps, request);
  if (refusal) return refusal;
  const query = new URL(request.url).searchParams;
  const span = v.safeParse(ordersFileInput, {
    from: query.get('from') || undefined,
    to: query.get('to') || undefined,
  });
  if (!span.success) return refused(400, PAPERWORK_TEXT.badDay);
  const orders = await ordersFile(deps.db, span.output, now);
  return file(orders.text, 'text/csv; charset=utf-8', orders.fileName);
}

/** Opened in the browser's PDF viewer (inline) to print; its name when saved. */
export async function packingSlip(deps: Deps, request: Request, orderId: string) {
  const refusal = await deskOnly(deps, request);
  if (refusal) return refusal;
  const parsed = v.safeParse(receiptInput, { orderId });
  const slip = parsed.success ? await packingSlipFor(deps.db, parsed.output.orderId) : null;
  if (!slip) return refused(404, PAPERWORK_TEXT.notFound);
  const name = `duuka-packing-slip-${slip.orderId.slice(0, 8)}.pdf`;
  return file(await packingSlipPdf(slip), 'application/pdf', name, 'inline');
}
