// A signed-in shopper's cart, kept on the server, one line per variant (decision 0039). Every
// change is one guarded statement batched with the read of the whole cart, so each call is one
// round trip and answers the cart as it is now: prices and stock from the catalogue, never from
// the client. Each write also carries the change's gate (the session, the attempt's limit:
// decision 0057), and the batch goes through it.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type Cart,
  type CartLine,
  type CartProduct,
  loadCart,
  MAX_LINE_QUANTITY,
  type PieceRef,
} from '#core/cart-rules.ts';
import type { Db } from '#db/client.ts';
import { cartItems, products, productVariants } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { cardPictureWidths, onSale, pOnSale } from './catalogue-service.ts';
import { WriteGate } from './write-gate.ts';

/** Why a change was refused, for the spec's cart toasts. */
export type CartProblem = 'product-missing' | 'choose-size' | 'stock-limit';

/**
 * The cart as it is now, changed or not (the shop's one refusal shape, the cart beside it). Past
 * the stock, the refusal says how many the line may hold and how many it held before.
 */
export type CartAnswer =
  | { ok: true; cart: Cart }
  | (Refused<'product-missing' | 'choose-size'> & { cart: Cart })
  | (Refused<'stock-limit'> & { cart: Cart; available: number; inCart: number });

/** A variant as a cart line shows it: its product's name, picture and page, its price. */
const pieceColumns = {
  productId: products.id,
  variantId: productVariants.id,
  label: productVariants.label,
  slug: products.slug,
  name: products.productName,
  price: sql<number>`coalesce(${productVariants.price}, ${products.price})`.mapWith(Number),
  image: products.productImage,
  imageWidths: cardPictureWidths,
};

/**
 * The cart's lines as read (`toCart` makes the cart of them). `userId` may be SQL naming the
 * shopper inside the statement (the desk's inbox finds her by her phone in the same batch).
 */
export function readCart(db: Db, userId: string | SQL) {
  return db
    .select({
      ...pieceColumns,
      quantity: cartItems.quantity,
      // A line of a piece taken off sale stays listed (the shopper's own) with nothing to buy:
      // the cart shows it as no longer available and checkout refuses it.
      stock: sql<number>`case when ${onSale} then ${productVariants.stock} else 0 end`.mapWith(
        Number,
      ),
    })
    .from(cartItems)
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(productVariants.id));
}

/** A line as read: its picture's widths null when it has none. */
type ReadLine = Omit<CartLine, 'imageWidths'> & { imageWidths: number[] | null };

/** Widths only for a picture that has them (the cart's saved shape has no null there). */
const withWidths = <T extends { imageWidths: number[] | null }>({ imageWidths, ...line }: T) =>
  imageWidths?.length ? { ...line, imageWidths } : line;

export const toCart = (lines: ReadLine[]) => loadCart(lines.map(withWidths));

/**
 * The pieces a cart link names (issue 37) that are on sale now, with their stock and price now, in
 * no particular order. A variant that is gone, or whose product is a draft or archived, is simply
 * not among them: the link's page says a piece is no longer in the shop without naming it.
 */
export async function linkPieces(db: Db, variantIds: readonly number[]): Promise<CartProduct[]> {
  const rows = await db
    .select({ ...pieceColumns, stock: productVariants.stock })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(inArray(productVariants.id, [...variantIds]), onSale));
  return rows.map(withWidths);
}

/**
 * The variant a reference names, as SQL: the variant itself, or the only variant of a product
 * (null when the product has several or none).
 */
export function variantOf(ref: PieceRef): SQL {
  if ('variantId' in ref) return sql`${ref.variantId}::int`;
  return sql`(select min(id) from product_variants where product_id = ${ref.productId} having count(*) = 1)`;
}

/** What a refusal needs: the piece's stock, and how many variants its product has. */
const pieceOf = (db: Db, ref: PieceRef) =>
  db.execute<{ stock: number | null; variants: number }>(sql`
    select v.stock,
           (select count(*)::int from product_variants s where s.product_id = p.id) as variants
    from products p left join product_variants v on v.id = ${variantOf(ref)}
    where p.id = ${'variantId' in ref ? sql`(select product_id from product_variants where id = ${ref.variantId})` : sql`${ref.productId}::int`}
      and ${pOnSale}`);

export async function getCart(db: Db, userId: string): Promise<Cart> {
  return toCart(await readCart(db, userId));
}

/**
 * Adds `quantity` pieces (1 from a card, N from the dialog): a new line with them, or the line's
 * quantity + them, never above the stock nor a line's limit (core/cart-rules.ts). Refused, nothing
 * changes: the client never has to undo part of an add.
 */
export async function addToCart(
  db: Db,
  userId: string,
  ref: PieceRef,
  quantity = 1,
  gate = new WriteGate(db, null),
): Promise<CartAnswer> {
  const most = sql`least(v.stock, ${MAX_LINE_QUANTITY})`;
  const [added, piece, lines] = await gate.batch([
    db.execute<{ variant_id: number }>(sql`
      insert into cart_items (user_id, variant_id, quantity)
      select ${userId}, v.id, ${quantity}::int
      from product_variants v join products p on p.id = v.product_id
      where v.id = ${variantOf(ref)} and ${quantity} <= ${most} and ${pOnSale} and ${gate.allows()}
      on conflict (user_id, variant_id) do update set quantity = cart_items.quantity + excluded.quantity
        where cart_items.quantity + excluded.quantity <=
          (select ${most} from product_variants v where v.id = excluded.variant_id)
      returning variant_id`),
    pieceOf(db, ref),
    readCart(db, userId),
  ]);
  const variantId = added.rows[0]?.variant_id;
  const inCart =
    lines.find((l) =>
      'variantId' in ref ? l.variantId === ref.variantId : l.variantId === variantId,
    )?.quantity ?? 0;
  return answer(added.rows.length > 0, lines, piece.rows[0], inCart);
}

/**
 * The cart after a change, or why the change placed nothing: a piece gone, unchosen, or too few
 * (`inCart`: what the line held, unchanged).
 */
function answer(
  changed: boolean,
  lines: ReadLine[],
  piece: { stock: number | null; variants: number } | undefined,
  inCart: number,
): CartAnswer {
  const cart = toCart(lines);
  if (changed) return { ok: true, cart };
  if (piece && piece.stock === null && piece.variants > 1) {
    return { ok: false, problem: 'choose-size', cart };
  }
  if (!piece || piece.stock === null) return { ok: false, problem: 'product-missing', cart };
  // A line never holds more than its limit, whatever the stock.
  const available = Math.min(Number(piece.stock), MAX_LINE_QUANTITY);
  return { ok: false, problem: 'stock-limit', cart, available, inCart };
}

/** Sets a line's quantity (0 or less removes it), never above the stock. */
export async function setCartQuantity(
  db: Db,
  userId: string,
  ref: PieceRef,
  quantity: number,
  gate = new WriteGate(db, null),
): Promise<CartAnswer> {
  if (quantity <= 0) return { ok: true, cart: await removeFromCart(db, userId, ref, gate) };
  const [updated, piece, lines] = await gate.batch([
    db.execute<{ variant_id: number }>(sql`
      update cart_items set quantity = ${quantity}
      where user_id = ${userId} and variant_id = ${variantOf(ref)} and ${gate.allows()}
        and ${quantity} <= (select v.stock from product_variants v
                            join products p on p.id = v.product_id
                            where v.id = cart_items.variant_id and ${pOnSale})
      returning variant_id`),
    pieceOf(db, ref),
    readCart(db, userId),
  ]);
  // A line that is not in the cart cannot be set: answered like a product that is gone.
  const line = lines.find((l) =>
    'variantId' in ref ? l.variantId === ref.variantId : l.productId === ref.productId,
  );
  return answer(
    updated.rows.length > 0,
    lines,
    line ? piece.rows[0] : undefined,
    line?.quantity ?? 0,
  );
}

export async function removeFromCart(
  db: Db,
  userId: string,
  ref: PieceRef,
  gate = new WriteGate(db, null),
): Promise<Cart> {
  const [, lines] = await gate.batch([
    db.execute(
      sql`delete from cart_items where user_id = ${userId} and variant_id = ${variantOf(ref)}
            and ${gate.allows()}`,
    ),
    readCart(db, userId),
  ]);
  return toCart(lines);
}

export async function clearCart(
  db: Db,
  userId: string,
  gate = new WriteGate(db, null),
): Promise<Cart> {
  const [, lines] = await gate.batch([
    db.execute(sql`delete from cart_items where user_id = ${userId} and ${gate.allows()}`),
    readCart(db, userId),
  ]);
  return toCart(lines);
}

/**
 * A cart kept in the browser before login joins the server's: quantities add up, capped by the
 * stock; pieces that are gone, sold out, or named by a product sold in several sizes are left out.
 */
export async function mergeIntoCart(
  db: Db,
  userId: string,
  items: (PieceRef & { quantity: number })[],
  gate = new WriteGate(db, null),
): Promise<Cart> {
  if (items.length === 0) return getCart(db, userId);
  const variantIds = items.map((i) => ('variantId' in i ? i.variantId : null));
  const productIds = items.map((i) => ('productId' in i ? i.productId : null));
  const quantities = items.map((i) => i.quantity);
  const [, lines] = await gate.batch([
    db.execute(sql`
      with sent as (
        select coalesce(s.variant_id,
                 (select min(id) from product_variants where product_id = s.product_id
                  having count(*) = 1)) as variant_id,
               s.quantity
        from unnest(${sql.param(variantIds)}::int[], ${sql.param(productIds)}::int[],
                    ${sql.param(quantities)}::int[]) as s(variant_id, product_id, quantity)
      ),
      wanted as (
        select variant_id, sum(quantity)::int as quantity from sent
        where variant_id is not null group by variant_id
      )
      insert into cart_items (user_id, variant_id, quantity)
      select ${userId}, v.id, least(w.quantity, v.stock)
      from wanted w join product_variants v on v.id = w.variant_id
        join products p on p.id = v.product_id
      where v.stock > 0 and ${pOnSale} and ${gate.allows()}
      on conflict (user_id, variant_id) do update
        set quantity = least(cart_items.quantity + excluded.quantity,
          greatest(cart_items.quantity, (select stock from product_variants where id = excluded.variant_id)))`),
    readCart(db, userId),
  ]);
  return toCart(lines);
}
