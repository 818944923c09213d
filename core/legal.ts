// The facts the Terms of Service, Privacy Policy and Cookie Policy state (app/routes/terms.tsx,
// privacy.tsx, cookies.tsx), in one place, each read from the code that does it: what the shop
// keeps and why, who else receives it, how long it stays, and every cookie and browser-storage
// key. tests/e2e/legal.test.ts compares these with the cookies and keys the shop really sets.

import { LESS_DATA_COOKIE } from './less-data.ts';
import {
  AUTH_COOKIE_PREFIX,
  CART_OWNER_KEY,
  CART_STORAGE_KEY,
  ORDER_ATTEMPT_KEY,
  PENDING_ADD_KEY,
  SETTINGS_STORAGE_KEY,
  SETTINGS_UNSYNCED_KEY,
} from './settings-rules.ts';

export { LEGAL_PAGES, LEGAL_UPDATED } from './legal-pages.ts';

/** better-auth's session cookie (server/auth.ts: cookiePrefix, session.expiresIn 30 days). */
export const SESSION_COOKIE = `${AUTH_COOKIE_PREFIX}.session_token`;
/** The same cookie's name when the shop is served over https (better-auth adds the prefix). */
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;
/** better-auth's two-factor plugin: between the password and the code (600 s, its default). */
export const TWO_FACTOR_COOKIE = `${AUTH_COOKIE_PREFIX}.two_factor`;

/** server/auth.ts session.expiresIn, in days; updateAge renews it once a day of use. */
export const SESSION_DAYS = 30;

export type DataKept = {
  /** What it is, as a heading. */
  what: string;
  /** The pieces of it the shop stores. */
  items: readonly string[];
  why: string;
  kept: string;
};

/**
 * What the shop stores (db/schema/*.ts), why, and how long. Where no code removes something, it is
 * kept while the account exists or as long as the law on business records requires.
 */
export const DATA_KEPT: readonly DataKept[] = [
  {
    // db/schema/accounts-tables.ts user, account (better-auth stores the password hashed).
    what: 'Your account',
    items: [
      'your name and email address',
      'your password, stored only as a one-way hash that nobody can read back',
      'whether you have confirmed your email address',
    ],
    why: 'To sign you in, confirm that the address is yours and write to you about your account.',
    kept: 'While your account exists. Deleting your account removes it.',
  },
  {
    // db/schema/accounts-tables.ts profiles; server/services/avatar-service.ts (R2).
    what: 'Your profile',
    items: [
      'your full name',
      'your phone number',
      'your delivery address',
      'your profile picture, if you add one (stored with Cloudflare R2)',
    ],
    why: 'Checkout needs a phone number and an address; our texts about your orders go to this phone number.',
    kept: 'While your account exists. Deleting your account removes it, picture included.',
  },
  {
    // db/schema/accounts-tables.ts session (ip_address, user_agent); server/auth.ts session.
    what: 'Your sign-ins',
    items: [
      'the IP address and the browser (its user agent) each session was started from',
      'when each session started and when it ends',
    ],
    why: 'To keep you signed in on each device, and to end every session at once when needed.',
    kept: `A session ends ${SESSION_DAYS} days after it was last renewed (using the shop renews it once a day), when you sign out, when you change your password (your other devices are signed out) or when you delete your account.`,
  },
  {
    // db/schema/accounts-tables.ts two_factor (secret and backup codes, encrypted by better-auth).
    what: 'Two-factor sign-in',
    items: ['your authenticator app’s secret and your backup codes, encrypted'],
    why: 'Only if you turn it on: to check the code from your app when you sign in.',
    kept: 'Until you turn two-factor sign-in off or delete your account.',
  },
  {
    // db/schema/accounts-tables.ts user_settings.
    what: 'Your settings',
    items: ['your notification choices, theme, language, currency and display name'],
    why: 'To show the shop the way you set it, on every device.',
    kept: 'While your account exists.',
  },
  {
    // db/schema/orders-tables.ts cart_items.
    what: 'Your cart',
    items: ['the pieces, sizes and quantities in your cart'],
    why: 'So your cart follows you from one device to another.',
    kept: 'Until you check out, remove the pieces or delete your account.',
  },
  {
    // db/schema/orders-tables.ts orders, order_items, receipts (receipt_data.customerInfo).
    what: 'Your orders',
    items: [
      'the pieces, sizes, quantities and prices, the delivery fee and the total',
      'how you chose to pay, and the order’s status',
      'the delivery option, delivery area, landmark, the phone number the rider calls and your delivery notes',
      'the receipt, with your name, email address, phone number and address',
    ],
    why: 'To prepare, deliver and support your order, and for the shop’s books.',
    kept: 'As long as the law on business records requires. You can delete an order yourself under My Orders: it goes with its items and receipt. When you delete your account, your orders keep what was bought and how it was sent, and lose your name, the delivery area, landmark, the rider’s number and your notes.',
  },
  {
    // db/schema/payments-tables.ts payments.
    what: 'Your payments',
    items: [
      'for mobile money: the number that paid, the network (MTN or Airtel) and the provider’s transaction id',
      'for card payments: Pesapal’s reference and the amount it reports — your card details are typed on Pesapal’s page and never reach duuka',
      'for a bank transfer: its reference; for any payment: the amount, its status and any refund’s reference',
    ],
    why: 'To confirm that an order is paid, to refund money the order did not need, and for the shop’s books.',
    kept: 'As long as the law on business records requires — also after the order or the account is deleted.',
  },
  {
    // db/schema/messaging-tables.ts sms_notifications; server/services/sms-service.ts.
    what: 'Text messages we send you',
    items: [
      'the number and the words of each text (order confirmed, payment received, shipped, delivered, cancelled, back in stock) and whether it was delivered',
    ],
    why: 'To know what was sent, and to retry a text that did not go through.',
    kept: 'As the shop’s record of what was sent. When you delete your account, the texts about your orders and the “back in stock” texts to your number lose the number and their words.',
  },
  {
    // db/schema/messaging-tables.ts chat_messages; server/services/chat/*.
    what: 'Your chats with the assistant',
    items: ['what you write to “Ask duuka” and its replies, with the pieces it showed you'],
    why: 'So you can pick up a conversation where you left it; the assistant reads your last few messages to answer.',
    kept: 'While your account exists. Deleting your account removes them; ask us to clear them sooner.',
  },
  {
    // db/schema/messaging-tables.ts back_in_stock_requests.
    what: '“Tell me when it’s back” requests',
    items: ['which sold-out size you asked about'],
    why: 'To text you once when it is back.',
    kept: 'Until we text you (the request is then removed) or you delete your account.',
  },
  {
    // db/schema/storefront-tables.ts contact_messages.
    what: 'Messages from the Contact page',
    items: ['the name, email address, phone number and message you send'],
    why: 'To answer you.',
    kept: 'They are not linked to your account, and nothing deletes them automatically: ask us and we delete them.',
  },
  {
    // db/schema/storefront-tables.ts newsletter_subscriptions.
    what: 'The duuka letter',
    items: ['the email address you subscribe with'],
    why: 'To send you the letter.',
    kept: 'Until you ask us to take you off the list.',
  },
  {
    // server/services/rate-limit.ts, server/auth.ts rateLimit (table rate_limit).
    what: 'Counters against abuse',
    items: [
      'how many times an IP address, an account or an email address tried something (signing in, sending a form, asking for a confirmation email)',
    ],
    why: 'To stop password guessing and floods of messages.',
    kept: 'Each counter counts only for its window — one minute to one hour; counters whose window is over are removed as new ones are counted.',
  },
];

/** `receives`: what they receive, as a sentence. */
export type Recipient = { name: string; role: string; receives: string };

/** Who else receives personal data, and what (server/services/…). */
export const RECIPIENTS: readonly Recipient[] = [
  {
    // server/services/payments/mtn-momo.ts
    name: 'MTN Mobile Money (MTN Uganda)',
    role: 'Mobile-money payments',
    receives:
      'The number you pay from, the amount and a short order reference, so that your phone can ask you to approve the payment.',
  },
  {
    // server/services/payments/airtel-money.ts
    name: 'Airtel Money (Airtel Uganda)',
    role: 'Mobile-money payments',
    receives: 'The number you pay from, the amount and a short order reference.',
  },
  {
    // server/services/payments/pesapal.ts, card.ts
    name: 'Pesapal',
    role: 'Card payments, on Pesapal’s own payment page',
    receives:
      'Your name, email address and phone number, the amount and the order reference. Your card details go to Pesapal only.',
  },
  {
    // server/services/sms/egosms.ts
    name: 'EgoSMS (Pahappa, Kampala)',
    role: 'Text messages',
    receives: 'Your phone number and the words of each text we send you.',
  },
  {
    // server/services/chat/assistant.ts, conversation.ts; server/env.ts CHAT_MODEL
    name: 'Google (the Gemini model)',
    role: 'The “Ask duuka” assistant',
    receives:
      'What you write to the assistant, your name, your last few messages, your three latest orders (reference, date, total and status) and the orders and pieces it looks up for you. Only while the assistant is switched on: otherwise it answers from ready-made replies, and nothing leaves the shop.',
  },
  {
    // server/services/mail-service.ts resendMailer
    name: 'Resend',
    role: 'Email',
    receives:
      'Your email address and each email we send you, such as the link to confirm your address.',
  },
  {
    // wrangler.toml: Workers, R2, Images
    name: 'Cloudflare',
    role: 'Hosting',
    receives:
      'Every visit to the shop passes through Cloudflare, with your IP address; it also stores profile pictures (R2).',
  },
  {
    // db/client.ts
    name: 'Neon',
    role: 'The database',
    receives: 'Neon runs the shop’s database, which stores everything described on this page.',
  },
];

/** What deleting the account removes, and what stays for the shop's books
 * (server/services/account-service.ts deleteAccount, server/routers/account-router.ts). */
export const ACCOUNT_DELETION = {
  removed: [
    'your account, password and sign-in sessions, which signs you out everywhere',
    'your profile and profile picture, settings, cart and two-factor secret',
    'your chats with the assistant and your “tell me when it’s back” requests',
    'your name, email address, phone number and address on your receipts',
    'your number and the words of the texts we sent you about your orders, and of the “back in stock” texts sent to your number',
    'on your orders and receipts, the delivery area, landmark, the phone number given for the rider and your delivery notes',
    'your saved settings and cart in the browser you delete it from',
  ],
  kept: [
    'your orders and receipts, no longer linked to you and named “Deleted customer”, for the shop’s books',
    'on those orders, what was bought and how it was sent (the delivery option and its fee)',
    'your payments, with the paying mobile-money number and the provider’s transaction id',
    'messages you sent through the Contact page and a newsletter subscription, which are not tied to your account',
  ],
} as const;

/** The key TanStack Router keeps scroll positions under (@tanstack/router-core's storageKey). */
export const SCROLL_RESTORATION_KEY = 'tsr-scroll-restoration-v1_3';

export type BrowserItem = {
  name: string;
  kind: 'Cookie' | 'Local storage' | 'Session storage';
  purpose: string;
  /** The cookie's name on a secure (https) connection, when it differs. */
  secureName?: string;
  lifetime: string;
};

/** Every cookie the shop sets (the sign-in ones by better-auth) and every browser-storage key it writes. */
export const BROWSER_ITEMS: readonly BrowserItem[] = [
  {
    name: SESSION_COOKIE,
    kind: 'Cookie',
    purpose:
      'Keeps you signed in. Page scripts cannot read it (HttpOnly), and other websites’ forms cannot post with it (SameSite=Lax).',
    secureName: SECURE_SESSION_COOKIE,
    lifetime: `${SESSION_DAYS} days, renewed as you use the shop; removed when you sign out.`,
  },
  {
    name: TWO_FACTOR_COOKIE,
    kind: 'Cookie',
    purpose:
      'Only if you turned on two-factor sign-in: links the code you type to the password you just gave.',
    lifetime: '10 minutes, removed once the code is accepted.',
  },
  {
    name: LESS_DATA_COOKIE,
    kind: 'Cookie',
    purpose:
      'Only if you turned on “Use less data” in Settings: tells our server to send smaller pictures.',
    lifetime: 'A year from when you saved it; removed when you turn it off or delete your account.',
  },
  {
    name: SETTINGS_STORAGE_KEY,
    kind: 'Local storage',
    purpose:
      'A copy of your settings, so the page opens in your theme before it has asked the server.',
    lifetime: 'Until you delete your account or clear this browser’s storage.',
  },
  {
    name: SETTINGS_UNSYNCED_KEY,
    kind: 'Local storage',
    purpose:
      'Remembers that settings you saved have not reached our server yet, to send them again.',
    lifetime: 'Removed as soon as they arrive.',
  },
  {
    name: CART_STORAGE_KEY,
    kind: 'Local storage',
    purpose:
      'Your cart: the pieces, sizes, prices and quantities. Before you sign in, your cart lives only here.',
    lifetime:
      'Until you check out or empty it, delete your account or clear this browser’s storage.',
  },
  {
    name: CART_OWNER_KEY,
    kind: 'Local storage',
    purpose:
      'Which account the cart in this browser belongs to, so one shopper never sees another’s.',
    lifetime: 'Until you clear this browser’s storage.',
  },
  {
    name: PENDING_ADD_KEY,
    kind: 'Session storage',
    purpose: 'A piece you tried to add before signing in, added once you have.',
    lifetime: 'Until you sign in, or this tab is closed.',
  },
  {
    name: ORDER_ATTEMPT_KEY,
    kind: 'Session storage',
    purpose:
      'The number of the order you are placing, so pressing Place Order twice never makes two orders.',
    lifetime: 'Until the order is placed, or this tab is closed.',
  },
  {
    // TanStack Router's scroll restoration (app/router.tsx scrollRestoration: true).
    name: SCROLL_RESTORATION_KEY,
    kind: 'Session storage',
    purpose:
      'Where you had scrolled to on each page, so Back returns you to the same place in a list.',
    lifetime: 'Until this tab is closed.',
  },
];

/** The Settings page's switches that have nothing to switch (app/routes/settings.tsx). */
export const INERT_SETTINGS = ['Analytics', 'Data sharing'] as const;

/** The Personal Data Protection Office, the regulator a shopper can complain to. */
export const PDPO = {
  name: 'Personal Data Protection Office (PDPO)',
  url: 'https://www.pdpo.go.ug',
} as const;

/**
 * The Terms' numbers, each the shop's own elsewhere (core/legal.test.ts holds them to it):
 * returns and exchanges (the default windows, core/returns.ts), the refund after a cancellation (core/sms.ts
 * SMS_TEXT.cancelled), the time to approve a mobile-money payment (core/mobile-money.ts
 * PAYMENT_EXPIRY_MS) and the shortest password (core/account.ts MIN_PASSWORD_LENGTH).
 */
export const TERMS_FACTS = {
  returnDays: 14,
  exchangeDays: 7,
  refundDays: '3–5',
  approveMinutes: 5,
  minPasswordLength: 6,
} as const;
