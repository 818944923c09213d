// Gift cards bought and store credit granted (issue 35, decision 0081): what the gift card page,
// the desk's credit page and the shopper's account say, and what their procedures accept.
import * as v from 'valibot';
import { wholeSchema } from './bounds.ts';
import { requestKey } from './desk-roles.ts';
import { GIFT_CARD_MAX, GIFT_CARD_MIN } from './gift-cards.ts';
import { formatUGX } from './money.ts';
import { ORDER_ID } from './order-id.ts';
import { PAYMENT_METHODS } from './order-rules.ts';
import { COUNTRY_CODE, normalisePhone } from './phone.ts';
import { typedText } from './text.ts';

/** The most staff may grant at once (UGX): a typo of one zero too many stays a clear refusal. */
export const CREDIT_GRANT_MAX = 5_000_000;
export const RECIPIENT_NAME_MAX = 60;
export const GIFT_MESSAGE_MAX = 200;
export const CREDIT_REASON_MAX = 200;

/** A gift card is paid before it exists: never cash on delivery (there is nothing to deliver). */
export const GIFT_CARD_PAYMENT_METHODS = PAYMENT_METHODS.filter((m) => m !== 'cash_on_delivery');
export type GiftCardPaymentMethod = (typeof GIFT_CARD_PAYMENT_METHODS)[number];

/** The order's one line, as the desk and the receipt show it (its delivery: GIFT_CARD_DELIVERY). */
export const giftCardItemName = (recipient: string) => `Gift card for ${recipient}`;

export const GIFT_CARD_TEXT = {
  title: 'Gift cards',
  intro:
    'Give the pieces she will choose herself. We text the code to her phone as soon as you pay; she spends it at checkout, all at once or across orders.',
  amountLabel: 'Amount',
  otherAmount: 'Another amount',
  recipientName: 'Her name (or his)',
  recipientPhone: 'Their phone number',
  message: 'A message (optional)',
  buy: (amount: number) => `Buy a ${formatUGX(amount)} gift card`,
  badAmount: `Choose an amount from ${formatUGX(GIFT_CARD_MIN)} to ${formatUGX(GIFT_CARD_MAX)}, in whole shillings.`,
  badName: `Give the recipient's name (at most ${RECIPIENT_NAME_MAX} characters).`,
  badPhone: 'Give the recipient’s Ugandan phone number, e.g. 0772 123456.',
  badMessage: `The message can be at most ${GIFT_MESSAGE_MAX} characters, without invisible characters.`,
  badMethod: 'Pay for a gift card by mobile money, card or bank transfer.',
  signIn: 'Sign in to buy a gift card.',
  noCashOnDelivery: 'A gift card is paid before it is sent: mobile money, card or bank transfer.',
  sentOnPayment: 'The code is texted to the recipient as soon as the payment is confirmed.',
  failed: 'The gift card could not be bought. Please try again.',
  fromShop: 'Gift cards',
} as const;

export const CREDIT_TEXT = {
  title: 'Store credit and gift cards',
  balance: (amount: number) => `${formatUGX(amount)} to spend`,
  spendNote: 'Spent at checkout before you pay.',
  entry: {
    issued: 'Gift card issued',
    granted: 'Credit from the shop',
    refund: 'Refund to credit',
    spent: 'Spent on an order',
    given_back: 'Given back (order cancelled)',
  } as Record<string, string>,
  unknownEmail: 'No shopper has this email.',
  badEmail: 'Give the shopper’s email.',
  badAmount: `Grant from UGX 1 to ${formatUGX(CREDIT_GRANT_MAX)}, in whole shillings.`,
  badReason: `Say why (at most ${CREDIT_REASON_MAX} characters).`,
  granted: (amount: number, email: string) => `${formatUGX(amount)} granted to ${email}.`,
  deskTitle: 'Gift cards & credit',
  deskIntro: 'Every gift card sold and every shopper’s credit, with each movement of it.',
  awaitingPayment: 'Awaiting payment',
  issued: 'Issued',
  noGiftCards: 'No gift card sold yet.',
  noCredit: 'No shopper has store credit yet.',
  grant: 'Grant credit',
} as const;

/** A Ugandan mobile number as typed ("0772 123456", "+256 772 123456"), stored +256XXXXXXXXX. */
export const ugandanPhone = (message: string) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.maxLength(30, message),
    v.regex(/^[+\d\s()-]+$/, message),
    v.transform(normalisePhone),
    v.check((phone) => new RegExp(`^\\${COUNTRY_CODE}\\d{9}$`).test(phone), message),
  );

/** giftCards.buy: the client's order id (a retry makes one order), the amount and the recipient. */
export const buyGiftCardInput = v.strictObject(
  {
    orderId: v.pipe(v.string(GIFT_CARD_TEXT.failed), v.regex(ORDER_ID, GIFT_CARD_TEXT.failed)),
    amount: wholeSchema(GIFT_CARD_MIN, GIFT_CARD_MAX, GIFT_CARD_TEXT.badAmount),
    recipientName: v.pipe(
      typedText({
        notText: GIFT_CARD_TEXT.badName,
        max: RECIPIENT_NAME_MAX,
        tooLong: GIFT_CARD_TEXT.badName,
        invisible: GIFT_CARD_TEXT.badName,
      }),
      v.minLength(1, GIFT_CARD_TEXT.badName),
    ),
    recipientPhone: ugandanPhone(GIFT_CARD_TEXT.badPhone),
    message: v.optional(
      typedText({
        notText: GIFT_CARD_TEXT.badMessage,
        max: GIFT_MESSAGE_MAX,
        tooLong: GIFT_CARD_TEXT.badMessage,
        invisible: GIFT_CARD_TEXT.badMessage,
      }),
    ),
    paymentMethod: v.picklist(GIFT_CARD_PAYMENT_METHODS, GIFT_CARD_TEXT.badMethod),
  },
  // No way of paying sent reads as none chosen; anything else that is not a form is refused.
  (issue) =>
    issue.expected === '"paymentMethod"' ? GIFT_CARD_TEXT.badMethod : GIFT_CARD_TEXT.failed,
);
export type BuyGiftCard = v.InferOutput<typeof buyGiftCardInput>;

/** desk.grantCredit: whose (by email), how much, and why (kept as the entry's note). */
export const grantCreditInput = v.strictObject(
  {
    email: v.pipe(
      v.string(CREDIT_TEXT.badEmail),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(254, CREDIT_TEXT.badEmail),
      v.email(CREDIT_TEXT.badEmail),
    ),
    amount: wholeSchema(1, CREDIT_GRANT_MAX, CREDIT_TEXT.badAmount),
    reason: v.pipe(
      typedText({
        notText: CREDIT_TEXT.badReason,
        max: CREDIT_REASON_MAX,
        tooLong: CREDIT_TEXT.badReason,
        invisible: CREDIT_TEXT.badReason,
      }),
      v.minLength(1, CREDIT_TEXT.badReason),
    ),
    /** The form's key: a retried grant (a dropped connection, a double tap) grants once. */
    requestKey: v.optional(requestKey),
  },
  CREDIT_TEXT.badReason,
);
export type GrantCredit = v.InferOutput<typeof grantCreditInput>;
