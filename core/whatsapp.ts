// WhatsApp through Meta's Cloud API (issue 37, decision 0088): the rules the shop, its fake and
// the desk share. Order updates go out as approved templates, one per order text the shop sends
// today; each template's one body parameter is that text's words (the same builder as the SMS,
// core/sms.ts), so a shopper reads the same words on either channel and a fallback to SMS sends
// exactly what WhatsApp could not deliver. docs/whatsapp.md lists them for Meta's approval.
import * as v from 'valibot';
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import type { SmsKind } from './sms.ts';
import { DAYS, type WeekHours } from './store-details.ts';
import { objectMessage } from './text.ts';

// Where a shopper's order updates go is one of her settings (NotificationChannel in
// core/settings-rules.ts, NOTIFICATION_CHANNELS in core/account.ts: the settings page loads them);
// the "Ask on WhatsApp" links are core/whatsapp-link.ts (the shop's pages load it, not this).
export { askOnWhatsAppLink, orderQuestion, productQuestion } from './whatsapp-link.ts';

/** Meta's Graph API, as `WHATSAPP_BASE_URL` defaults to it. */
export const WHATSAPP_DEFAULT_BASE_URL = 'https://graph.facebook.com/v21.0';
/** The templates' language as submitted to Meta. */
export const WHATSAPP_LANGUAGE = 'en';
/** A template not `delivered` within this long is texted instead (once). */
export const WHATSAPP_FALLBACK_AFTER_S = 10 * 60;
/** Free text only within 24 hours of the shopper's last message (Meta's customer-service window). */
export const WHATSAPP_WINDOW_S = 24 * 60 * 60;
/** Meta's limit on a free-text message's body. */
export const WHATSAPP_TEXT_MAX = 4096;
/** Meta's limit on one template body parameter. */
export const WHATSAPP_PARAMETER_MAX = 1024;
/** Meta's error for free text outside the 24-hour window (re-engagement message). */
export const WHATSAPP_OUTSIDE_WINDOW = 131047;
/** How long the Cloud API is given to answer a send. */
export const WHATSAPP_TIMEOUT_MS = 10_000;

export type TemplateCategory = 'UTILITY' | 'MARKETING' | 'AUTHENTICATION';
export type WhatsAppTemplate = {
  /** The name submitted to Meta (lowercase letters, digits and underscores). */
  name: string;
  category: TemplateCategory;
  /** The body as submitted, `{{1}}` for its one parameter. */
  body: string;
  /** What `{{1}}` holds, for the owner's submission. */
  parameter: string;
};

const update = (name: string, opening: string): WhatsAppTemplate => ({
  name,
  category: 'UTILITY',
  body: `${opening}\n\n{{1}}\n\nReply to this message if you have a question.`,
  parameter: 'The text the shop would send by SMS (at most 160 characters)',
});

/**
 * One template per order text the shop sends its customers today (the SMS kinds to a customer
 * about an order or a return): the kinds that follow the shopper's channel. Texts to the admin and
 * sellers, gift cards to their recipients and promotions stay SMS.
 */
export const ORDER_UPDATE_TEMPLATES = {
  'order-confirmation': update('duuka_order_confirmation', 'Your duuka order is in.'),
  'payment-received': update('duuka_payment_received', 'Your payment reached duuka.'),
  shipped: update('duuka_order_shipped', 'Your duuka order is on its way.'),
  'out-for-delivery': update('duuka_out_for_delivery', 'Your duuka order is out for delivery.'),
  delivered: update('duuka_order_delivered', 'Your duuka order was delivered.'),
  'ready-for-pickup': update('duuka_ready_for_pickup', 'Your duuka order is ready to collect.'),
  cancelled: update('duuka_order_cancelled', 'Your duuka order was cancelled.'),
  'return-requested': update('duuka_return_requested', 'duuka has your return request.'),
  'return-approved': update('duuka_return_approved', 'Your duuka return is approved.'),
  'return-refused': update('duuka_return_refused', 'About your duuka return.'),
  'refund-sent': update('duuka_refund_sent', 'Your duuka refund is on its way.'),
  'exchange-shipped': update('duuka_exchange_shipped', 'Your duuka exchange is on its way.'),
} as const satisfies Partial<Record<SmsKind, WhatsAppTemplate>>;

export type OrderUpdateKind = keyof typeof ORDER_UPDATE_TEMPLATES;

/** The code that verifies a shopper's number on WhatsApp (an authentication template). */
export const VERIFICATION_TEMPLATE: WhatsAppTemplate = {
  name: 'duuka_verification_code',
  category: 'AUTHENTICATION',
  body: '{{1}} is your verification code.',
  parameter: 'The 6-digit code',
};

/** Every template the shop may send: the fake knows these and refuses any other. */
export const WHATSAPP_TEMPLATES: readonly WhatsAppTemplate[] = [
  ...Object.values(ORDER_UPDATE_TEMPLATES),
  VERIFICATION_TEMPLATE,
];

export function isOrderUpdate(kind: string): kind is OrderUpdateKind {
  return Object.hasOwn(ORDER_UPDATE_TEMPLATES, kind);
}

/** A number as the Cloud API takes it: digits only, no '+' (the shop keeps +256…). */
export function whatsAppNumber(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** The shop's own form of a number WhatsApp reports ('256700123456' → '+256700123456'). */
export function shopNumber(waId: string): string {
  return `+${waId.replace(/\D/g, '')}`;
}

/** A message that turns a shopper's WhatsApp messages off (compared trimmed, any case). */
export function isStop(text: string): boolean {
  return /^(stop|unsubscribe|stop all)$/i.test(text.trim());
}

/** What a WhatsApp row's delivery state reads on the desk's message log. */
export const WHATSAPP_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type WhatsAppStatus = (typeof WHATSAPP_STATUSES)[number];

export const WHATSAPP_TEXT = {
  /** The one acknowledgement of STOP (free text: the shopper has just written). */
  stopped:
    'You will get no more WhatsApp messages from duuka. Order updates come by SMS. Send START to turn them back on.',
  started: 'WhatsApp messages from duuka are on again.',
  /** Why a row was texted instead (the desk's message log). */
  fallbackFailed: (error: string) => `WhatsApp failed (${error}): sent by SMS instead`,
  fallbackSilent: 'Not delivered on WhatsApp within 10 minutes: sent by SMS instead',
  fallbackRefused: (error: string) => `WhatsApp refused it (${error}): sent by SMS instead`,
  fallbackStopped: 'The shopper sent STOP on WhatsApp: sent by SMS instead',
  /** A staff reply the window no longer allows. */
  outsideWindow:
    'More than 24 hours since this shopper last wrote: WhatsApp only lets the shop start again with a template. Call or text her instead.',
  replyEmpty: 'Write a reply first.',
  replyTooLong: `A WhatsApp message can hold at most ${WHATSAPP_TEXT_MAX.toLocaleString('en')} characters.`,
  notConfigured: 'WhatsApp is not set up for this shop.',
  /** A staff message to a number that sent STOP (until it sends START). */
  stoppedNumber:
    'This shopper sent STOP: WhatsApp messages to her are off until she sends START. Call or text her instead.',
  replyNotText: 'A reply must be text.',
  replyInvisible: 'A reply cannot contain invisible control characters.',
  /** Meta refused a staff message when it was sent (the reason as the adapter words it). */
  sendRefused: (reason: string) => `WhatsApp did not take the message: ${reason}`,
  /** Who an outbound message without a staff member is from: the shop's own (order updates,
   * STOP's acknowledgement), or the assistant on WhatsApp. */
  sentByShop: 'duuka',
  sentByAssistant: 'Assistant',
} as const;

/** Start again after STOP. */
export function isStart(text: string): boolean {
  return /^(start|unstop)$/i.test(text.trim());
}

// ---- The assistant on WhatsApp and the shopper's verified number --------------------------------

/** When the assistant answers WhatsApp: never, all the time, or outside the shop's hours. */
export const WHATSAPP_ASSISTANT_MODES = ['off', 'always', 'after_hours'] as const;
export type WhatsAppAssistantMode = (typeof WHATSAPP_ASSISTANT_MODES)[number];
/** A thread handed to staff stays theirs this long before the assistant answers again. */
export const HANDED_OVER_S = 24 * 60 * 60;
/** A verification code's life, and the tries it allows. */
export const VERIFY_CODE_TTL_S = 10 * 60;
export const VERIFY_MAX_ATTEMPTS = 5;

/** "Talk to a person" and the ways Kampala writes it. */
export function asksForPerson(text: string): boolean {
  return /\b(talk|speak|chat)\s+(to|with)\s+(a\s+|an\s+|some\s*one|your\s+)?(person|human|someone|staff|agent|people|manager)\b|^\s*(human|agent|person)\s*[.!?]*\s*$/i.test(
    text,
  );
}

/** Whether `at` falls inside the shop's hours for its Kampala weekday. */
export function withinHours(hours: WeekHours, at: Date): boolean {
  const kampala = new Date(at.getTime() + KAMPALA_OFFSET_MS);
  // getUTCDay counts from Sunday; the shop's week (DAYS) from Monday.
  const today = hours[DAYS[(kampala.getUTCDay() + 6) % 7] ?? 'mon'];
  if (!today) return false;
  const now = kampala.toISOString().slice(11, 16); // 'HH:MM', as the hours are kept
  return now >= today.open && now < today.close;
}

export const WHATSAPP_ASSISTANT_TEXT = {
  handedOver: 'A person from duuka will answer you here soon. Thank you for waiting.',
  /** What the assistant knows about a number that is not verified on an account. */
  unverified:
    'This shopper writes on WhatsApp from a number not verified on a duuka account: you cannot see any orders, returns or store credit of hers, and must not guess them. If she asks about her order, tell her to verify this number on the site (Settings, then Verify on WhatsApp) or to give her order reference to a person by writing "talk to a person".',
  verified:
    'This shopper writes on WhatsApp from the number verified on her duuka account. Answer in plain text for WhatsApp: short lines, no markdown.',
  modeSaved: 'Saved: the assistant on WhatsApp follows the new setting.',
} as const;

export const WHATSAPP_VERIFY_TEXT = {
  noPhone: 'Add your phone number to your profile first: the code is sent there on WhatsApp.',
  sent: (phone: string) =>
    `We sent a 6-digit code to ${phone} on WhatsApp. It works for 10 minutes.`,
  codeInvalid: 'Enter the 6 digits of the code we sent you on WhatsApp.',
  codeWrong: 'That code is not the one we sent. Check it and try again.',
  codeExpired: 'That code has expired. Ask for a new one.',
  tooManyTries: 'Too many wrong codes. Ask for a new one.',
  notSent: 'The code could not be sent on WhatsApp just now. Please try again in a minute.',
  verified: (phone: string) => `${phone} is verified on WhatsApp.`,
} as const;

/** The code as typed: 6 digits (spaces allowed between them). */
export const verifyWhatsAppInput = v.strictObject(
  {
    code: v.pipe(
      v.string(WHATSAPP_VERIFY_TEXT.codeInvalid),
      v.maxLength(20, WHATSAPP_VERIFY_TEXT.codeInvalid),
      v.transform((code) => code.replace(/\s/g, '')),
      v.regex(/^\d{6}$/, WHATSAPP_VERIFY_TEXT.codeInvalid),
    ),
  },
  objectMessage(WHATSAPP_VERIFY_TEXT.codeInvalid),
);

const MODE_INVALID = 'Choose when the assistant answers: off, always or outside opening hours.';
export const whatsAppAssistantInput = v.strictObject(
  { mode: v.picklist(WHATSAPP_ASSISTANT_MODES, MODE_INVALID) },
  objectMessage(MODE_INVALID),
);
