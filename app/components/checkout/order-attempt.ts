// One order id per checkout attempt (spec: the order id is made by the client). It is kept in the
// tab's session storage until the order is placed or the cart changes, so a double click, a retry
// after a network error or a reload sends the same id, and the server makes exactly one order.
import { ORDER_ATTEMPT_KEY } from '#core/settings-rules.ts';

export { ORDER_ATTEMPT_KEY };

type Items = readonly { variantId: number; quantity: number }[];
type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A v4 uuid; `crypto.randomUUID` is missing outside secure contexts (plain http on a LAN). */
export function newOrderId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The cart as the attempt knows it: the same products and quantities, in any order. */
function itemsKey(items: Items): string {
  return [...items]
    .sort((a, b) => a.variantId - b.variantId)
    .map((i) => `${i.variantId}x${i.quantity}`)
    .join(',');
}

/** The id of this cart's attempt: the one kept for the same cart, else a new one (kept). */
export function orderAttemptId(store: Store, items: Items, makeId = newOrderId): string {
  const key = itemsKey(items);
  try {
    const saved = JSON.parse(store.getItem(ORDER_ATTEMPT_KEY) ?? 'null') as {
      orderId?: unknown;
      items?: unknown;
    } | null;
    if (
      saved &&
      saved.items === key &&
      typeof saved.orderId === 'string' &&
      UUID.test(saved.orderId)
    ) {
      return saved.orderId;
    }
  } catch {
    // A broken saved attempt: start a new one.
  }
  const orderId = makeId();
  try {
    store.setItem(ORDER_ATTEMPT_KEY, JSON.stringify({ orderId, items: key }));
  } catch {
    // Storage blocked: the id still holds for this page's retries.
  }
  return orderId;
}

/** The order was placed: the next checkout is a new attempt. */
export function forgetOrderAttempt(store: Store): void {
  try {
    store.removeItem(ORDER_ATTEMPT_KEY);
  } catch {
    // Nothing kept.
  }
}
