// GET /api/desk/products.csv: the whole catalogue as a spreadsheet, for the shop's staff and
// owner only (401 signed out, 403 a customer). Built from its parts so tests call it directly.

import { TEXT } from '#core/account.ts';
import { DESK_TEXT, deskRoleOf } from '#core/desk-roles.ts';
import { sessionUser } from '../auth.ts';
import type { Context } from '../context.ts';
import { catalogueFile } from '../services/desk-spreadsheet-service.ts';

const refused = (status: 401 | 403, message: string) =>
  new Response(JSON.stringify({ message }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

export async function productsCsv(
  deps: Pick<Context, 'db' | 'auth' | 'ownerEmails'>,
  request: Request,
  now = new Date(),
): Promise<Response> {
  const user = await sessionUser(deps.auth, request.headers);
  if (!user) return refused(401, TEXT.notAuthenticated);
  if (!deskRoleOf(user, deps.ownerEmails)) return refused(403, DESK_TEXT.deskOnly);
  const file = await catalogueFile(deps.db, now);
  return new Response(file.text, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
