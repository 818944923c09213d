// An order's id as the shop makes them (a UUID), checked without a schema library: the orders
// page's address reads it in every page's first script (issue 38).

/** An order id: a UUID, in either case. */
export const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` can be an order's id. */
export function isOrderId(text: unknown): text is string {
  return typeof text === 'string' && ORDER_ID.test(text);
}
