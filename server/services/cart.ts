// A signed-in shopper's cart, kept on the server. Every change is one guarded statement batched
// with the read of the whole cart, so each call is one round trip and answers the cart as it is
// now: prices and stock from the products table, never from the client.
import { asc, eq, sql } from 'drizzle-orm';
import { type Cart, type CartLine, loadCart } from '#core/cart.ts';
import type { Db } from '#db/client.ts';
import { cartItems, products } from '#db/schema/index.ts';
import { mergeLines } from './checkout.ts';

/** Why a change was refused, for the spec's cart toasts. */
export type CartRefusal =
  | { kind: 'product-missing' }
  | { kind: 'stock-limit'; name: string; available: number; requested: number };

export type CartAnswer = { ok: true; cart: Cart } | { ok: false; refusal: CartRefusal; cart: Cart };

function readCart(db: Db, userId: string) {
  return db
    .select({
      productId: products.id,
      slug: products.slug,
      name: products.productName,
      price: products.price,
      image: products.productImage,
      quantity: cartItems.quantity,
      stock: products.quantity,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(products.id));
}

const toCart = (lines: CartLine[]): Cart => loadCart(lines);

const productById = (db: Db, productId: number) =>
  db
    .select({ name: products.productName, stock: products.quantity })
    .from(products)
    .where(eq(products.id, productId));

export async function getCart(db: Db, userId: string): Promise<Cart> {
  return toCart(await readCart(db, userId));
}

/** Adds one piece: a new line with 1, or the line's quantity + 1, never above the stock. */
export async function addToCart(db: Db, userId: string, productId: number): Promise<CartAnswer> {
  const [added, [product], lines] = await db.batch([
    db.execute<{ quantity: number }>(sql`
      insert into cart_items (user_id, product_id, quantity)
      select ${userId}, p.id, 1 from products p where p.id = ${productId} and p.quantity >= 1
      on conflict (user_id, product_id) do update set quantity = cart_items.quantity + 1
        where cart_items.quantity + 1 <= (select quantity from products where id = excluded.product_id)
      returning quantity`),
    productById(db, productId),
    readCart(db, userId),
  ]);
  const inCart = lines.find((l) => l.productId === productId)?.quantity ?? 0;
  return answer(added.rows.length > 0, lines, product, inCart + 1);
}

/** The cart after a change, or why the change placed nothing: a product gone or too few left. */
function answer(
  changed: boolean,
  lines: CartLine[],
  product: { name: string; stock: number } | undefined,
  requested: number,
): CartAnswer {
  const cart = toCart(lines);
  if (changed) return { ok: true, cart };
  if (!product) return { ok: false, refusal: { kind: 'product-missing' }, cart };
  return {
    ok: false,
    refusal: { kind: 'stock-limit', name: product.name, available: product.stock, requested },
    cart,
  };
}

/** Sets a line's quantity (0 or less removes it), never above the stock. */
export async function setCartQuantity(
  db: Db,
  userId: string,
  productId: number,
  quantity: number,
): Promise<CartAnswer> {
  if (quantity <= 0) return { ok: true, cart: await removeFromCart(db, userId, productId) };
  const [updated, [product], lines] = await db.batch([
    db.execute<{ quantity: number }>(sql`
      update cart_items set quantity = ${quantity}
      where user_id = ${userId} and product_id = ${productId}
        and ${quantity} <= (select quantity from products where id = ${productId})
      returning quantity`),
    productById(db, productId),
    readCart(db, userId),
  ]);
  // A line that is not in the cart cannot be set: answered like a product that is gone.
  const inCart = lines.some((l) => l.productId === productId);
  return answer(updated.rows.length > 0, lines, inCart ? product : undefined, quantity);
}

export async function removeFromCart(db: Db, userId: string, productId: number): Promise<Cart> {
  const [, lines] = await db.batch([
    db.execute(sql`delete from cart_items where user_id = ${userId} and product_id = ${productId}`),
    readCart(db, userId),
  ]);
  return toCart(lines);
}

export async function clearCart(db: Db, userId: string): Promise<Cart> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
  return loadCart([]);
}

/**
 * A cart kept in the browser before login joins the server's: quantities add up, capped by the
 * stock; products that are gone or sold out are left out.
 */
export async function mergeIntoCart(
  db: Db,
  userId: string,
  items: { productId: number; quantity: number }[],
): Promise<Cart> {
  const wanted = mergeLines(items);
  if (wanted.length === 0) return getCart(db, userId);
  const ids = wanted.map((i) => i.productId);
  const quantities = wanted.map((i) => i.quantity);
  const [, lines] = await db.batch([
    db.execute(sql`
      insert into cart_items (user_id, product_id, quantity)
      select ${userId}, p.id, least(w.quantity, p.quantity)
      from unnest(${sql.param(ids)}::int[], ${sql.param(quantities)}::int[]) as w(product_id, quantity)
      join products p on p.id = w.product_id
      where p.quantity > 0
      on conflict (user_id, product_id) do update
        set quantity = least(cart_items.quantity + excluded.quantity,
          greatest(cart_items.quantity, (select quantity from products where id = excluded.product_id)))`),
    readCart(db, userId),
  ]);
  return toCart(lines);
}
