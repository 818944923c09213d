// Security sweeps over every tRPC procedure, enumerated from the router (issue 14): a procedure
// that this table does not cover fails the first test.
// - Authorisation: each procedure called anonymously, by a second shopper with the first one's
//   ids (orders, receipts, cart lines, chat sessions, payments, texts, back-in-stock requests),
//   and the desk's as a
//   customer: refused with UNAUTHORIZED / NOT_FOUND / FORBIDDEN, and nothing of the first
//   shopper's changed or shown.
// - Fuzz (fast-check): valid input works; any other input (wrong types, missing or extra keys,
//   huge strings, NUL and control characters, odd numbers) is a 4xx with a plain message — never
//   a 500, never a stack, never the input echoed back whole.
// All calls go over HTTP through tRPC's fetch adapter, as the browser sends them.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIANT_TEXT } from '#core/variants.ts';
import {
  payments,
  profiles,
  promotions,
  refunds,
  smsNotifications,
  user,
  userSettings,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { appRouter } from '#server/routers/index.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
type Shopper = Awaited<ReturnType<typeof signedInShopper>>;
let alice: Shopper; // owns the things others try to reach
let bob: Shopper; // another customer
let olivia: Shopper; // the shop's operator
const own = {
  /** An account the owner adds to the desk, then removes. */
  deskEmail: `desk-${randomUUID().slice(0, 8)}@example.ug`,
  productId: 0,
  variantId: 0,
  /** A size sold out, which Alice asked to be told about. */
  soldOutVariantId: 0,
  slug: '',
  orderId: '',
  toShip: '',
  /** Alice's bank-transfer order, for the desk to mark paid. */
  toConfirm: '',
  /** A payment of Alice's the order did not need, for the desk to mark refunded. */
  toRefund: '',
  /** Another, for the desk to refund through its provider (issue 36). */
  toSendBack: '',
  /** A failed refund of Alice's, for Retry; a succeeded one, her credit note. */
  failedRefundId: '',
  creditNoteId: '',
  /** Alice's delivered order with four of one piece to return (issue 36), the line, and her
   * returns: an exchange received (for the desk to ship), a refund asked (to approve, receive). */
  toReturn: '',
  returnLine: '',
  exchangeId: '',
  refundReturnId: '',
  sessionId: '',
  smsId: '',
  /** An offer a campaign may announce (issue 35). */
  promotionId: 0,
  /** A shopper's stop link's token (issue 35): someone else's than Alice's or Bob's. */
  stopToken: 'sweepstkn2',
};

/** Each procedure: who may call it, an input that works for Alice, and (for procedures that name
 * something owned) the input with which Bob reaches for Alice's, and the refusal he must get. */
type Rule = {
  access: 'public' | 'shopper' | 'desk';
  /** Streams its answer (an async generator), as the chat's reply does. */
  stream?: true;
  valid: () => unknown;
  /** Bob with Alice's ids; absent: the procedure names nothing, it acts on the caller's own. */
  others?: () => unknown;
  /** An input naming every number the procedure takes, where `valid` leaves some out. */
  numbers?: () => unknown;
};
const RULES: Record<string, Rule> = {
  'account.session': { access: 'public', valid: () => undefined },
  'account.profile': { access: 'shopper', valid: () => undefined },
  'account.updateProfile': {
    access: 'shopper',
    valid: () => ({ fullName: 'Bob Mugisha', phone: '0772 123 456', address: 'Plot 9, Ntinda' }),
  },
  'account.settings': { access: 'shopper', valid: () => undefined },
  'account.saveSettings': {
    access: 'shopper',
    valid: () => ({
      notifications: { email: true, push: false, orderUpdates: true, promotions: false },
      appearance: { darkMode: null, language: 'en', currency: 'UGX' },
      privacy: { profileVisibility: 'private', dataSharing: false, analytics: false },
      account: { displayName: 'Bob', twoFactorAuth: false },
    }),
  },
  'account.credit': { access: 'shopper', valid: () => undefined },
  // Verify on WhatsApp (issue 37): the caller's own number; no WhatsApp in the sweep's shop.
  'account.whatsapp': { access: 'shopper', valid: () => undefined },
  'account.sendWhatsAppCode': { access: 'shopper', valid: () => undefined },
  'account.verifyWhatsApp': { access: 'shopper', valid: () => ({ code: '123456' }) },
  'giftCards.buy': {
    access: 'shopper',
    valid: () => ({
      orderId: randomUUID(),
      amount: 50_000,
      recipientName: 'Amina Nalule',
      recipientPhone: '0772 123456',
      paymentMethod: 'bank_transfer',
    }),
    // Alice's order id as Bob's idempotency key: never her order back.
    others: () => ({
      orderId: own.orderId,
      amount: 50_000,
      recipientName: 'Amina Nalule',
      recipientPhone: '0772 123456',
      paymentMethod: 'bank_transfer',
    }),
  },
  'account.deleteAccount': { access: 'shopper', valid: () => ({ password: 'not-the-password' }) },
  'cart.get': { access: 'shopper', valid: () => undefined },
  'cart.add': {
    access: 'shopper',
    valid: () => ({ variantId: own.variantId }),
    numbers: () => ({ variantId: own.variantId, quantity: 1 }),
  },
  'cart.update': { access: 'shopper', valid: () => ({ variantId: own.variantId, quantity: 1 }) },
  'cart.remove': { access: 'shopper', valid: () => ({ variantId: own.variantId }) },
  'cart.clear': { access: 'shopper', valid: () => undefined },
  'cart.merge': {
    access: 'shopper',
    valid: () => ({ items: [{ variantId: own.variantId, quantity: 1 }] }),
  },
  // A cart link's pieces (issue 37): the catalogue's, open to a visitor.
  'cart.linkPieces': { access: 'public', valid: () => ({ variantIds: [own.variantId] }) },
  'catalogue.home': { access: 'public', valid: () => undefined },
  'catalogue.shop': { access: 'public', valid: () => undefined },
  'catalogue.categories': { access: 'public', valid: () => undefined },
  'catalogue.list': {
    access: 'public',
    valid: () => ({ page: 1 }),
    numbers: () => ({ categoryId: 1, page: 1, filters: { minPrice: 0, maxPrice: 100_000 } }),
  },
  'catalogue.search': {
    access: 'public',
    valid: () => ({ term: 'dress' }),
    numbers: () => ({ term: 'dress', page: 1, filters: { minPrice: 0, maxPrice: 100_000 } }),
  },
  'catalogue.rates': { access: 'public', valid: () => undefined },
  'catalogue.related': { access: 'public', valid: () => ({ id: own.productId }) },
  'catalogue.product': { access: 'public', valid: () => ({ id: own.productId }) },
  'catalogue.productBySlug': { access: 'public', valid: () => ({ slug: own.slug }) },
  // Names a variant, not something of Alice's: Bob asking for it makes his own request and
  // neither sees nor changes hers (aliceState reads it).
  'catalogue.notifyWhenBack': {
    access: 'shopper',
    valid: () => ({ variantId: own.soldOutVariantId }),
  },
  'chat.start': { access: 'shopper', valid: () => undefined },
  'chat.history': {
    access: 'shopper',
    valid: () => undefined,
    others: () => ({ sessionId: own.sessionId }),
  },
  'chat.send': {
    access: 'shopper',
    stream: true,
    valid: () => ({ sessionId: own.sessionId, text: 'Hello' }),
    others: () => ({ sessionId: own.sessionId, text: 'Show me her messages' }),
  },
  'chat.clear': { access: 'shopper', valid: () => undefined },
  'checkout.bankTransfer': { access: 'shopper', valid: () => undefined },
  'checkout.deliveryOptions': { access: 'public', valid: () => undefined },
  'checkout.preview': {
    access: 'public',
    valid: () => ({
      items: [{ variantId: own.variantId, quantity: 1 }],
      codes: ['KARIBU10'],
      useCredit: true,
    }),
  },
  'checkout.placeOrder': {
    access: 'shopper',
    valid: () => ({
      orderId: randomUUID(),
      items: [{ variantId: own.variantId, quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
    }),
    // Alice's order id as Bob's idempotency key: never her order back.
    others: () => ({
      orderId: own.orderId,
      items: [{ variantId: own.variantId, quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
    }),
  },
  'contact.channels': { access: 'public', valid: () => undefined },
  'contact.subscribe': { access: 'public', valid: () => ({ email: 'reader@example.ug' }) },
  // The stop link (issue 35): no session, the token is the key.
  'stopLink.read': { access: 'public', valid: () => ({ token: own.stopToken }) },
  'stopLink.stop': { access: 'public', valid: () => ({ token: own.stopToken }) },
  'contact.send': {
    access: 'public',
    valid: () => ({ email: 'asker@example.ug', comment: 'Do you ship to Gulu?' }),
  },
  'desk.orders': {
    access: 'desk',
    valid: () => ({ q: 'alice', queue: 'to_confirm', paid: false, from: '2026-01-01' }),
  },
  'desk.setStatus': {
    access: 'desk',
    valid: () => ({ orderId: own.toShip, status: 'processing' }),
  },
  'desk.sms': {
    access: 'desk',
    valid: () => ({ orderId: own.orderId }),
    numbers: () => ({ orderId: own.orderId, limit: 10 }),
  },
  'desk.money': { access: 'desk', valid: () => undefined },
  'desk.markPaid': {
    access: 'desk',
    valid: () => ({ orderId: own.toConfirm, reference: 'FT26112500001' }),
  },
  'desk.markRefunded': {
    access: 'desk',
    valid: () => ({ paymentId: own.toRefund, reference: 'MTN-REFUND-0001' }),
  },
  'desk.smsStats': { access: 'desk', valid: () => undefined },
  // WhatsApp on the desk (issue 37).
  'desk.whatsapp': { access: 'desk', valid: () => undefined },
  'desk.setWhatsAppAssistant': { access: 'desk', valid: () => ({ mode: 'off' }) },
  // Refunds through the provider that took the money (issue 36).
  'desk.refundPayment': { access: 'desk', valid: () => ({ paymentId: own.toSendBack }) },
  'desk.retryRefund': { access: 'desk', valid: () => ({ refundId: own.failedRefundId }) },
  'desk.creditNote': { access: 'desk', valid: () => ({ refundId: own.creditNoteId }) },
  // Returns and exchanges (issue 36): Alice's own; Bob with her ids gets 404.
  'returns.options': {
    access: 'shopper',
    valid: () => ({ orderId: own.toReturn }),
    others: () => ({ orderId: own.toReturn }),
  },
  'returns.request': {
    access: 'shopper',
    valid: () => ({
      returnId: randomUUID(),
      orderId: own.toReturn,
      lines: [{ orderItemId: own.returnLine, quantity: 1, reason: 'too_big' }],
      resolution: 'refund',
      refundTo: 'store_credit',
    }),
    others: () => ({
      returnId: randomUUID(),
      orderId: own.toReturn,
      lines: [{ orderItemId: own.returnLine, quantity: 1, reason: 'too_big' }],
      resolution: 'refund',
    }),
  },
  'returns.list': { access: 'shopper', valid: () => undefined },
  'returns.byId': {
    access: 'shopper',
    valid: () => ({ id: own.exchangeId }),
    others: () => ({ id: own.exchangeId }),
  },
  'desk.returns': { access: 'desk', valid: () => ({ status: 'requested' }) },
  'desk.returnById': { access: 'desk', valid: () => ({ returnId: own.exchangeId }) },
  'desk.decideReturn': {
    access: 'desk',
    valid: () => ({ returnId: own.refundReturnId, decision: 'approve', handover: 'drop_off' }),
  },
  'desk.receiveReturn': {
    access: 'desk',
    valid: () => ({
      returnId: own.refundReturnId,
      lines: [{ orderItemId: own.returnLine, condition: 'resellable' }],
    }),
  },
  'desk.moveExchange': {
    access: 'desk',
    valid: () => ({ returnId: own.exchangeId, to: 'out_for_delivery' }),
  },
  // One order's page and its private notes (issue 34).
  'desk.order': { access: 'desk', valid: () => ({ id: own.orderId }) },
  'desk.addOrderNote': {
    access: 'desk',
    valid: () => ({
      orderId: own.orderId,
      text: 'Called: collects Friday',
      requestKey: randomUUID(),
    }),
  },
  'desk.resend': { access: 'desk', valid: () => ({ id: own.smsId }) },
  // Orders taken by phone and the customers (issue 34).
  'desk.createOrder': {
    access: 'desk',
    valid: () => ({
      orderId: randomUUID(),
      customer: { phone: '0772 000 777', name: 'Sweep Walk-in' },
      items: [{ variantId: own.variantId, quantity: 1 }],
      deliveryOptionId: 'pickup',
      paymentMethod: 'bank_transfer',
      source: 'phone',
    }),
  },
  'desk.customerByPhone': { access: 'desk', valid: () => ({ phone: '0772000777' }) },
  'desk.customers': { access: 'desk', valid: () => ({ q: 'sweep' }) },
  // The WhatsApp inbox (issue 37). WhatsApp is not set up here: sending is refused with 503.
  'desk.inbox': { access: 'desk', valid: () => undefined },
  'desk.thread': { access: 'desk', valid: () => ({ phone: '+256772000777' }) },
  'desk.readThread': { access: 'desk', valid: () => ({ phone: '+256772000777' }) },
  'desk.reply': {
    access: 'desk',
    valid: () => ({ phone: '+256772000777', text: 'Yes, in M and L.', requestKey: randomUUID() }),
  },
  'desk.sendPiece': {
    access: 'desk',
    valid: () => ({ phone: '+256772000777', productId: own.productId }),
    numbers: () => ({
      phone: '+256772000777',
      productId: own.productId,
      variantId: own.variantId,
    }),
  },
  'desk.sendCartLink': {
    access: 'desk',
    valid: () => ({ phone: '+256772000777', items: [{ variantId: own.variantId, quantity: 2 }] }),
  },
  // Gift cards and store credit (issue 35).
  'desk.credit': { access: 'desk', valid: () => undefined },
  'desk.grantCredit': {
    access: 'desk',
    valid: () => ({ email: bob.email, amount: 1_000, reason: 'Sweep' }),
  },
  // The desk (issue 22): the operator (OPERATOR_EMAILS) is an owner.
  'desk.role': { access: 'desk', valid: () => undefined },
  'desk.dashboard': { access: 'desk', valid: () => undefined },
  'desk.settings': { access: 'desk', valid: () => undefined },
  'desk.saveSettings': {
    access: 'desk',
    valid: () => ({ requestKey: randomUUID(), lowStockThreshold: 3 }),
    numbers: () => ({
      requestKey: randomUUID(),
      lowStockThreshold: 3,
      exchangeRates: { USD: 3700, EUR: 4000, GBP: 4700 },
    }),
  },
  'desk.storeDetails': { access: 'desk', valid: () => undefined },
  'desk.saveStoreDetails': {
    access: 'desk',
    // Its only numbers are a pin's, which take decimals (1.5 is a place): their bad values are
    // in tests/integration/desk-store-details.test.ts.
    valid: () => ({ requestKey: randomUUID(), pickupHours: '9AM-6PM daily' }),
  },
  // Delivery (issue 23): every option and the threshold; a save of them as they are.
  'desk.deliveryOptions': { access: 'desk', valid: () => undefined },
  'desk.saveDeliveryOptions': {
    access: 'desk',
    valid: () => ({
      requestKey: randomUUID(),
      options: [
        {
          id: 'kampala',
          kind: 'delivery',
          name: 'Kampala delivery',
          fee: 5000,
          minDays: 1,
          maxDays: 3,
          details: 'By boda to your door anywhere in Kampala.',
          cashOnDelivery: true,
          active: true,
        },
      ],
      freeDeliveryOver: null,
    }),
    numbers: () => ({
      ...(RULES['desk.saveDeliveryOptions']?.valid() as object),
      freeDeliveryOver: 500_000,
    }),
  },
  // Offers (issue 35): every offer with its figures; a new one (switched off: the sweeps' shop
  // shows no sale), every number it takes named.
  'desk.offers': { access: 'desk', valid: () => undefined },
  'desk.saveOffer': {
    access: 'desk',
    valid: () => ({
      name: 'Sweep sale',
      code: null,
      kind: 'percent',
      value: 10,
      appliesTo: null,
      combinable: false,
      active: false,
    }),
    numbers: () => ({
      name: 'Sweep two for one',
      code: null,
      kind: 'buy_x_get_y',
      value: 50,
      appliesTo: { productIds: [own.productId] },
      minSubtotal: 100_000,
      usageLimit: 100,
      perShopperLimit: 1,
      buyQuantity: 2,
      getQuantity: 1,
      combinable: false,
      active: false,
    }),
  },
  // The home page (issue 34): the hero's slides and the categories, saved whole.
  'desk.homeSlides': { access: 'desk', valid: () => undefined },
  // Campaigns (issue 35): the page, the audience before sending, a send, the cart reminder's switch.
  'desk.campaigns': { access: 'desk', valid: () => undefined },
  'desk.campaignAudience': {
    access: 'desk',
    valid: () => ({ promotionId: own.promotionId }),
    numbers: () => ({ promotionId: own.promotionId, categoryId: 1, message: 'Hi' }),
  },
  'desk.sendCampaign': {
    access: 'desk',
    valid: () => ({
      promotionId: own.promotionId,
      message: 'Sweep sale',
      requestKey: randomUUID(),
    }),
  },
  'desk.setCartReminders': { access: 'desk', valid: () => ({ on: false }) },
  'desk.saveHomeSlides': {
    access: 'desk',
    valid: () => ({
      requestKey: randomUUID(),
      slides: [
        {
          title: 'Sweep Season',
          words: 'Made by the sweep.',
          linkLabel: 'Shop Now',
          linkUrl: '/shop',
        },
      ],
    }),
    numbers: () => ({
      requestKey: randomUUID(),
      slides: [{ id: 1, title: 'Sweep', words: '', linkLabel: 'Explore', linkUrl: '/shop' }],
    }),
  },
  'desk.categories': { access: 'desk', valid: () => undefined },
  'desk.saveCategories': {
    access: 'desk',
    valid: () => ({ requestKey: randomUUID(), categories: [{ name: 'Sweep Scarves' }] }),
    numbers: () => ({ requestKey: randomUUID(), categories: [{ id: 1, name: 'Sweep Wraps' }] }),
  },
  'desk.staff': { access: 'desk', valid: () => undefined },
  'desk.addStaff': { access: 'desk', valid: () => ({ email: own.deskEmail }) },
  'desk.removeStaff': { access: 'desk', valid: () => ({ email: own.deskEmail }) },
  'desk.record': { access: 'desk', valid: () => undefined, numbers: () => ({ before: 1 }) },
  'desk.products': { access: 'desk', valid: () => ({ q: 'dress' }) },
  'desk.product': { access: 'desk', valid: () => ({ id: own.productId }) },
  'desk.saveProduct': {
    access: 'desk',
    valid: () => ({
      requestKey: randomUUID(),
      name: 'Sweep Scarf',
      description: 'A scarf the sweep makes.',
      categoryIds: [],
      status: 'draft',
      options: [],
      variants: [
        { options: {}, sku: `SWEEP-${randomUUID().slice(0, 8)}`, price: 20_000, stock: 1 },
      ],
    }),
    numbers: () => ({
      requestKey: randomUUID(),
      id: own.productId,
      name: 'Sweep Kaftan',
      description: 'A kaftan the sweep edits.',
      categoryIds: [1],
      status: 'draft',
      options: [],
      variants: [
        {
          id: own.variantId,
          options: {},
          sku: `SWEEP-${randomUUID().slice(0, 8)}`,
          price: 20_000,
          compareAtPrice: 25_000,
          stock: 1,
          stockWas: 1,
        },
      ],
    }),
  },
  'desk.photos': { access: 'desk', valid: () => ({ productId: own.productId }) },
  'desk.setPhotos': {
    access: 'desk',
    valid: () => ({ productId: own.productId, photos: [] }),
    numbers: () => ({
      productId: own.productId,
      photos: [{ id: 1, alt: 'Sweep Kaftan', colour: null }],
      removed: [2],
    }),
  },
  'desk.adjustStock': {
    access: 'desk',
    valid: () => ({ variantId: own.variantId, delta: 1, reason: 'received' }),
  },
  'desk.stockLog': {
    access: 'desk',
    valid: () => ({ variantId: own.variantId }),
    numbers: () => ({ variantId: own.variantId, before: 1 }),
  },
  'desk.lowStock': { access: 'desk', valid: () => undefined },
  'desk.stockSearch': { access: 'desk', valid: () => ({ q: 'dress' }) },
  'desk.importProducts': {
    access: 'desk',
    valid: () => ({
      csv: `name,sku,price,stock\r\nSweep Wrap,SWEEP-${randomUUID().slice(0, 8)},15000,2\r\n`,
      requestKey: randomUUID(),
    }),
  },
  'orders.list': { access: 'shopper', valid: () => undefined },
  'orders.byId': {
    access: 'shopper',
    valid: () => ({ id: own.orderId }),
    others: () => ({ id: own.orderId }),
  },
  'orders.delete': {
    access: 'shopper',
    valid: () => ({ id: randomUUID() }),
    others: () => ({ id: own.orderId }),
  },
  'orders.receipt': {
    access: 'shopper',
    valid: () => ({ orderId: own.orderId }),
    others: () => ({ orderId: own.orderId }),
  },
  'orders.creditNote': {
    access: 'shopper',
    valid: () => ({ refundId: own.creditNoteId }),
    others: () => ({ refundId: own.creditNoteId }),
  },
  'payments.start': {
    access: 'shopper',
    valid: () => ({ orderId: own.orderId }),
    others: () => ({ orderId: own.orderId, phone: '0772 000 001' }),
  },
  'payments.status': {
    access: 'shopper',
    valid: () => ({ orderId: own.orderId }),
    others: () => ({ orderId: own.orderId }),
  },
  'payments.changeMethod': {
    access: 'shopper',
    valid: () => ({ orderId: own.orderId, paymentMethod: 'card' }),
    others: () => ({ orderId: own.orderId, paymentMethod: 'card' }),
  },
};
// The desk's orders under their first name (`operator.*`, kept for earlier clients): the same
// procedures, so the same rules.
const FIRST_NAMES = ['orders', 'setStatus', 'sms', 'money', 'markPaid', 'markRefunded', 'smsStats'];
for (const name of [...FIRST_NAMES, 'resend'])
  RULES[`operator.${name}`] = RULES[`desk.${name}`] as Rule;

// The flat map of "namespace.name" → procedure that tRPC keeps on every router.
const procedures = appRouter._def.procedures as unknown as Record<
  string,
  { _def: { type: string } }
>;
const kindOf = (path: string) =>
  RULES[path]?.stream
    ? ('stream' as const)
    : procedures[path]?._def.type === 'query'
      ? ('query' as const)
      : ('mutation' as const);

function call(path: string, input: unknown, who: Shopper | null, ip = freshIp()) {
  return callOverHttp(test.db, kindOf(path), path, input, {
    auth,
    cookie: who?.cookie,
    ip,
    ownerEmails: [olivia.email],
  });
}

let ipCounter = 0;
/** Each call from its own address: per-address limits never decide a sweep's answer. */
function freshIp() {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** Everything Alice can see of her own, to compare before and after the others' attempts. */
async function aliceState() {
  const read = async (path: string, input?: unknown) => (await call(path, input, alice)).body;
  return {
    profile: await read('account.profile'),
    settings: await read('account.settings'),
    cart: await read('cart.get'),
    orders: await read('orders.list'),
    order: await read('orders.byId', { id: own.orderId }),
    receipt: await read('orders.receipt', { orderId: own.orderId }),
    chat: await read('chat.history', { sessionId: own.sessionId }),
    payment: await read('payments.status', { orderId: own.orderId }),
    // No procedure reads these back: the table itself.
    backInStock: (
      await test.db.execute(
        sql`select variant_id, created_at from back_in_stock_requests where user_id = ${alice.id}`,
      )
    ).rows,
  };
}

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  alice = await signedInShopper(test.db, auth, { name: 'Alice Namubiru' });
  bob = await signedInShopper(test.db, auth, { name: 'Bob Mugisha' });
  olivia = await signedInShopper(test.db, auth, { name: 'Olivia Operator' });
  for (const shopper of [alice, bob]) {
    await test.db
      .update(profiles)
      .set({ phone: '+256772123456', address: 'Plot 7 Acacia Avenue, Kampala' })
      .where(eq(profiles.id, shopper.id));
  }
  const piece = await addProduct(test.db, { name: 'Sweep Kaftan', price: 90_000, stock: 50 });
  own.productId = piece.id;
  own.variantId = piece.variantId;
  own.slug = piece.slug;
  const sized = await addProduct(test.db, {
    name: 'Sweep Wrap Dress',
    price: 120_000,
    options: [{ name: 'Size', values: ['S', 'M'] }],
    stock: { S: 0, M: 3 },
  });
  own.soldOutVariantId = sized.variants.S as number;

  // Alice's order (and its receipt), a line in her cart, a chat session, a text about her order.
  // Alice's second order is the one the desk moves along.
  own.orderId = randomUUID();
  own.toShip = randomUUID();
  for (const orderId of [own.orderId, own.toShip]) {
    const placed = await call(
      'checkout.placeOrder',
      {
        orderId,
        items: [{ variantId: piece.variantId, quantity: 1 }],
        paymentMethod: 'mobile_money',
      },
      alice,
    );
    expect(placed.status).toBe(200);
  }
  own.toConfirm = randomUUID();
  const bankOrder = await call(
    'checkout.placeOrder',
    {
      orderId: own.toConfirm,
      items: [{ variantId: piece.variantId, quantity: 1 }],
      paymentMethod: 'bank_transfer',
    },
    alice,
  );
  expect(bankOrder.status).toBe(200);
  own.toRefund = randomUUID();
  await test.db.insert(payments).values({
    id: own.toRefund,
    orderId: own.orderId,
    customerId: alice.id,
    network: 'mtn',
    phone: '+256772123456',
    amount: 95_000,
    status: 'refund_due',
    transactionId: '4490868307',
    callbackSecret: 'sweep-secret',
  });
  own.toSendBack = randomUUID();
  await test.db.insert(payments).values({
    id: own.toSendBack,
    orderId: own.orderId,
    customerId: alice.id,
    network: 'mtn',
    phone: '+256772123456',
    amount: 40_000,
    status: 'refund_due',
    transactionId: '4490868308',
    callbackSecret: 'sweep-secret',
  });
  const [failedRefund, creditNote] = await test.db
    .insert(refunds)
    .values([
      {
        orderId: own.orderId,
        customerId: alice.id,
        method: 'mtn',
        amount: 1_000,
        status: 'failed',
      },
      {
        orderId: own.orderId,
        customerId: alice.id,
        method: 'cash',
        amount: 2_000,
        status: 'succeeded',
        reference: 'Cash',
        settledAt: new Date(),
      },
    ])
    .returning({ id: refunds.id });
  own.failedRefundId = failedRefund?.id ?? '';
  own.creditNoteId = creditNote?.id ?? '';
  // Alice's delivered order of four dresses in M: an exchange for L received by the desk, and
  // a refund to store credit asked for.
  const returned = await addProduct(test.db, {
    name: 'Sweep Return Dress',
    price: 80_000,
    options: [{ name: 'Size', values: ['M', 'L'] }],
    stock: { M: 10, L: 10 },
  });
  own.toReturn = randomUUID();
  const toReturn = await call(
    'checkout.placeOrder',
    {
      orderId: own.toReturn,
      items: [{ variantId: returned.variants.M as number, quantity: 4 }],
      paymentMethod: 'mobile_money',
    },
    alice,
  );
  expect(toReturn.status).toBe(200);
  await test.db.execute(
    sql`update orders set status = 'delivered' where id = ${own.toReturn}::uuid`,
  );
  const lineRows = await test.db.execute<{ id: string }>(
    sql`select id from order_items where order_id = ${own.toReturn}::uuid`,
  );
  own.returnLine = lineRows.rows[0]?.id ?? '';
  own.exchangeId = randomUUID();
  own.refundReturnId = randomUUID();
  const line = (exchangeVariantId?: number) => ({
    orderItemId: own.returnLine,
    quantity: 1,
    reason: 'too_small',
    ...(exchangeVariantId ? { exchangeVariantId } : {}),
  });
  for (const [returnId, input] of [
    [own.exchangeId, { resolution: 'exchange', lines: [line(returned.variants.L as number)] }],
    [own.refundReturnId, { resolution: 'refund', refundTo: 'store_credit', lines: [line()] }],
  ] as const) {
    const asked = await call(
      'returns.request',
      { returnId, orderId: own.toReturn, ...input },
      alice,
    );
    expect(asked.status).toBe(200);
  }
  const approved = await call(
    'desk.decideReturn',
    { returnId: own.exchangeId, decision: 'approve', handover: 'drop_off' },
    olivia,
  );
  expect(approved.status).toBe(200);
  const received = await call(
    'desk.receiveReturn',
    { returnId: own.exchangeId, lines: [{ orderItemId: own.returnLine, condition: 'resellable' }] },
    olivia,
  );
  expect(received.status).toBe(200);
  expect((await call('cart.add', { variantId: piece.variantId }, alice)).status).toBe(200);
  const asked = await call('catalogue.notifyWhenBack', { variantId: own.soldOutVariantId }, alice);
  expect(asked.status).toBe(200);
  const chat = await call('chat.start', undefined, alice);
  own.sessionId = (chat.body.result?.data as { sessionId: string } | undefined)?.sessionId ?? '';
  const [text] = await test.db
    .insert(smsNotifications)
    .values({
      orderId: own.orderId,
      recipientPhone: '+256772123456',
      recipientType: 'customer',
      kind: 'shipped',
      messageContent: 'duuka: your order is on its way',
      status: 'failed',
    })
    .returning({ id: smsNotifications.id });
  own.smsId = text?.id ?? '';
  // A campaign needs an offer and somebody who said yes to offers (not Alice or Bob: their texts
  // are what the sweep watches); the stop link, a token of another's.
  const [offer] = await test.db
    .insert(promotions)
    .values({ name: 'Sweep offer', code: 'SWEEP10', kind: 'percent', value: 10 })
    .returning({ id: promotions.id });
  own.promotionId = offer?.id ?? 0;
  for (const [phone, token] of [
    ['+256772000777', null],
    [null, own.stopToken],
  ] as const) {
    const id = randomUUID();
    const email = `${id}@example.ug`;
    await test.db.insert(user).values({ id, name: 'Sweep Reader', email, emailVerified: true });
    await test.db.insert(profiles).values({ id, email, fullName: 'Sweep Reader', phone });
    await test.db
      .insert(userSettings)
      .values({ userId: id, marketingNotifications: true, stopToken: token });
  }
  await test.db
    .insert(user)
    .values({ id: randomUUID(), name: 'Desk Sweep', email: own.deskEmail, emailVerified: true });
});
afterAll(() => test.close());

describe('the sweeps cover the router', () => {
  it('has a rule for every procedure, and no rule for a procedure that is gone', () => {
    expect(Object.keys(RULES).sort()).toEqual(Object.keys(procedures).sort());
  });
});

describe('authorisation sweep', () => {
  it('refuses every signed-in procedure to a visitor, with 401', async () => {
    const answers: Record<string, number> = {};
    for (const [path, rule] of Object.entries(RULES)) {
      if (rule.access === 'public') continue;
      answers[path] = (await call(path, rule.valid(), null)).status;
    }
    expect(Object.values(answers).every((status) => status === 401)).toBe(true);
    expect(Object.keys(answers).length).toBeGreaterThan(25);
  });

  it('refuses the desk’s procedures to a customer, with 403', async () => {
    for (const [path, rule] of Object.entries(RULES)) {
      if (rule.access !== 'desk') continue;
      const answer = await call(path, rule.valid(), alice);
      expect({ path, status: answer.status, message: answer.body.error?.message }).toEqual({
        path,
        status: 403,
        message: 'Staff only.',
      });
    }
  });

  it('never lets another customer reach, change or see what is Alice’s', async () => {
    const before = await aliceState();
    const markers = [alice.email, alice.id, own.orderId, own.sessionId, 'Alice Namubiru'];
    const refusals: Record<string, number> = {};
    // Deleting his own account last, so that every other call is still Bob's.
    const paths = Object.keys(RULES).sort((a, b) =>
      a === 'account.deleteAccount' ? 1 : b === 'account.deleteAccount' ? -1 : a.localeCompare(b),
    );
    for (const path of paths) {
      const rule = RULES[path] as Rule;
      if (rule.access === 'desk') continue;
      if (rule.others) {
        const answer = await call(path, rule.others(), bob);
        refusals[path] = answer.status;
        expect({
          path,
          leaked: markers.filter((m) => JSON.stringify(answer.body).includes(m)),
        }).toEqual({ path, leaked: [] });
      } else {
        // Names nothing: acts on Bob's own, and shows nothing of Alice's.
        const answer = await call(path, rule.valid(), bob);
        expect({ path, status: answer.status < 500 }).toEqual({ path, status: true });
        expect({
          path,
          leaked: markers.filter((m) => JSON.stringify(answer.body).includes(m)),
        }).toEqual({ path, leaked: [] });
      }
    }
    expect(refusals).toEqual({
      'chat.history': 404,
      'chat.send': 404,
      'checkout.placeOrder': 409,
      'giftCards.buy': 409,
      'orders.byId': 404,
      'orders.delete': 404,
      'orders.receipt': 404,
      'orders.creditNote': 404,
      'payments.changeMethod': 404,
      'payments.start': 404,
      'payments.status': 404,
      'returns.byId': 404,
      'returns.options': 404,
      'returns.request': 404,
    });
    expect(await aliceState()).toEqual(before);
    expect(before.backInStock).toHaveLength(1);
  });

  it('catalogue.notifyWhenBack: refused signed out; bad input or a piece in stock told plainly', async () => {
    const ask = (input: unknown, who: Shopper | null = bob) =>
      call('catalogue.notifyWhenBack', input, who);
    const visitor = await ask({ variantId: own.soldOutVariantId }, null);
    expect([visitor.status, visitor.body.error?.data?.code]).toEqual([401, 'UNAUTHORIZED']);
    for (const input of [{ variantId: 'abc' }, { variantId: 1.5 }, {}, { variantId: 1, x: 1 }]) {
      const answer = await ask(input);
      expect([answer.status, answer.body.error?.message]).toEqual([400, 'Product not found']);
    }
    const gone = await ask({ variantId: 2_000_000_000 });
    expect([gone.status, gone.body.error?.message]).toEqual([404, 'Product not found']);
    const inStock = await ask({ variantId: own.variantId });
    expect([inStock.status, inStock.body.error?.message]).toEqual([
      400,
      VARIANT_TEXT.notInStockNow,
    ]);
    // Asking twice is one request.
    for (let i = 0; i < 2; i++)
      expect((await ask({ variantId: own.soldOutVariantId })).status).toBe(200);
    const bobs = await test.db.execute(
      sql`select 1 from back_in_stock_requests where user_id = ${bob.id}`,
    );
    expect(bobs.rows).toHaveLength(1);
  });
});

/** Inputs nobody should send: fast-check's anything, and values aimed at known weak spots. */
const NASTY = fc.oneof(
  fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true }),
  fc.constantFrom(
    'x'.repeat(100_000),
    'a\u0000b',
    '\u0000'.repeat(64),
    -1,
    0,
    1.5,
    2 ** 53,
    -(2 ** 31),
    Number.MAX_VALUE,
    '1e309',
    [],
    [[[[]]]],
    { id: 'x'.repeat(10_000) },
    { orderId: '../../etc/passwd' },
    { productId: '1; drop table products' },
    { variantId: '1; drop table product_variants' },
    { variantId: 2 ** 31 },
    { productId: 2_147_483_648 },
    { productId: 1e21 },
    { before: 1e21 },
    { id: Number('9007199254740993') },
    { sessionId: `${'9'.repeat(5000)}` },
    { term: '%_\\'.repeat(1000) },
    { email: `${'a'.repeat(500)}@example.ug` },
    { fullName: '<script>alert(1)</script>' },
    { __proto__: { admin: true } },
  ),
  fc.dictionary(
    fc.constantFrom(
      'id',
      'orderId',
      'productId',
      'variantId',
      'quantity',
      'items',
      'before',
      'limit',
      'sessionId',
      'text',
      'term',
    ),
    fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.double(), fc.constant(null)),
  ),
);

/** What an answer to bad input must be: a 4xx with a short plain message, no stack, no echo. */
function checkRefusal(path: string, input: unknown, answer: Awaited<ReturnType<typeof call>>) {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  const error = answer.body.error;
  if (error) {
    if (typeof error.message !== 'string' || error.message.length === 0)
      problems.push('no message');
    if (error.message.length > 300) problems.push(`message of ${error.message.length} chars`);
    if (/\n\s+at /.test(error.message) || error.data?.stack) problems.push('a stack trace');
    const long = JSON.stringify(input ?? null).match(/"([^"]{64,})"/g) ?? [];
    for (const text of long) {
      if (JSON.stringify(answer.body).includes(text.slice(1, 65))) problems.push('input echoed');
    }
  }
  return problems.length ? { path, input: JSON.stringify(input)?.slice(0, 200), problems } : null;
}

/** Who may call a procedure: nobody in particular, Alice, or the desk's owner. */
const callerFor = (rule: Rule) =>
  rule.access === 'public' ? null : rule.access === 'desk' ? olivia : alice;

describe('fuzz: every procedure’s input', () => {
  it('works with valid input', async () => {
    const failed: Record<string, number> = {};
    for (const [path, rule] of Object.entries(RULES)) {
      if (path === 'account.deleteAccount' || path === 'orders.delete') continue; // refusals by design
      const answer = await call(path, rule.valid(), callerFor(rule));
      if (answer.status !== 200) failed[path] = answer.status;
    }
    // payments.start: no provider is configured in this test, so the payment is refused politely.
    // operator.markPaid and .markRefunded are desk.*'s procedures under their first name: what
    // desk.* marked just before is already marked (the same answer as a second tap).
    // desk.reply, .sendPiece and .sendCartLink: WhatsApp is not set up in this test (503).
    // Verify on WhatsApp: no WhatsApp here, and no code was sent (each a 400, in words).
    expect(failed).toEqual({
      'account.sendWhatsAppCode': 400,
      'account.verifyWhatsApp': 400,
      'desk.reply': 503,
      'desk.sendCartLink': 503,
      'desk.sendPiece': 503,
      'operator.markPaid': 409,
      'operator.markRefunded': 409,
      'payments.start': 503,
    });
  });

  it('refuses any other input with a clear 4xx, never a 500, a stack or an echo', async () => {
    const found: unknown[] = [];
    for (const [path, rule] of Object.entries(RULES)) {
      await fc.assert(
        fc.asyncProperty(NASTY, async (input) => {
          const problem = checkRefusal(path, input, await call(path, input, callerFor(rule)));
          if (problem) found.push(problem);
          return true;
        }),
        { numRuns: 25, seed: 20261124 },
      );
    }
    expect(found).toEqual([]);
    // 25 inputs for each of the (many, with the desk) procedures.
  }, 120_000);
});

// Issue 32: 2147483648 in an integer column, 1e21 as a bigint cursor answered 500 (PostgreSQL's
// "out of range for type integer", "invalid input syntax for type bigint"). Each number a
// procedure takes, in turn, gets each value no column holds, and text where a number belongs.
/** Never a number any field takes: refused with the field's 400 text. */
const NEVER = [1e21, 1.5, Number('9007199254740993'), 'NaN', '1e21', 'Infinity', '12abc', '7'];
/** Beyond an integer column, or below every id: refused, or (a cursor, a change of stock) taken. */
const EDGES = [2_147_483_648, -1];

/** The path to each number in an input: ['items', 0, 'quantity'], ['before']. */
function numberPaths(input: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof input === 'number') return [at];
  if (Array.isArray(input)) return input.flatMap((item, i) => numberPaths(item, [...at, i]));
  if (input && typeof input === 'object') {
    return Object.entries(input).flatMap(([key, value]) => numberPaths(value, [...at, key]));
  }
  return [];
}
/** The input with the number at `path` replaced. */
function withValue(input: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(input) as Record<string | number, unknown>;
  let here = copy;
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  here[path.at(-1) as string | number] = value;
  return copy;
}

describe('fuzz: every number of every procedure’s input', () => {
  it('refuses numbers no column holds with a clear 400, never a 500', async () => {
    // A shopper of its own: a cart change counts towards the cart's limit before its input is
    // read, and these are many.
    const carol = await signedInShopper(test.db, auth, { name: 'Carol Sweep' });
    const found: unknown[] = [];
    let fields = 0;
    for (const [path, rule] of Object.entries(RULES)) {
      const input = (rule.numbers ?? rule.valid)();
      for (const field of numberPaths(input)) {
        fields += 1;
        for (const value of [...NEVER, ...EDGES]) {
          const sent = withValue(input, field, value);
          const answer = await call(
            path,
            sent,
            rule.access === 'shopper' ? carol : callerFor(rule),
          );
          const problems = checkRefusal(path, sent, answer)?.problems ?? [];
          const message = answer.body.error?.message ?? '';
          if (/integer|bigint|out of range|syntax|\bsql\b/i.test(message)) {
            problems.push('the database’s words');
          }
          if (NEVER.includes(value) && answer.status !== 400) {
            problems.push(`status ${answer.status}, not 400`);
          }
          if (problems.length > 0) {
            found.push({
              path,
              field: field.join('.'),
              value,
              status: answer.status,
              message,
              problems,
            });
          }
        }
      }
    }
    expect(found).toEqual([]);
    // Every id, count, price, rate and cursor the router takes (a table that lost its numbers
    // would sweep nothing).
    expect(fields).toBeGreaterThan(30);
  }, 180_000);
});
