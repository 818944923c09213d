// How often one client may use each form before the shop asks them to wait. The answer past a
// limit is the spec's login text, TEXT.tooManyAttempts (core/account.ts), with the seconds left.

export type Limit = {
  /** Attempts allowed in one window. */
  max: number;
  /** Length of the window; the count starts again when it ends. */
  windowSeconds: number;
};

/**
 * Contact page: a person writes once, maybe corrects and sends again; 5 in 10 minutes leaves room
 * for that and for a few people behind one mobile network's shared address, while a script
 * filling the shop's inbox gets 30 messages an hour from an address instead of thousands.
 */
export const CONTACT_MESSAGE_LIMIT: Limit = { max: 5, windowSeconds: 10 * 60 };

/** Footer newsletter: one address each, a typo or two; same reasoning as the contact form. */
export const NEWSLETTER_LIMIT: Limit = { max: 5, windowSeconds: 10 * 60 };

/** Password guesses: sign-in per IP; delete account and change password per shopper. */
export const PASSWORD_CHECK_LIMIT: Limit = { max: 5, windowSeconds: 60 };

/**
 * Verification mails to one address, from any IP: the registration mail and two resends an hour.
 * Enough for a slow inbox; a stranger cannot turn the shop into a mail cannon aimed at someone.
 */
export const VERIFICATION_MAIL_LIMIT: Limit = { max: 3, windowSeconds: 60 * 60 };

/** Cart changes per shopper: quick taps on a stepper are fine; a script hammering stock is not. */
export const CART_LIMIT: Limit = { max: 120, windowSeconds: 60 };

/** Checkout attempts per shopper: retries and a changed mind, not a flood of orders. */
export const CHECKOUT_LIMIT: Limit = { max: 10, windowSeconds: 60 };

/** Return requests (issue 36) a shopper may send a minute: a form's retries, never a flood. */
export const RETURN_LIMIT: Limit = { max: 10, windowSeconds: 60 };

/**
 * checkout.preview per shopper or address (issue 35): the cart and the checkout ask it on every
 * change of a quantity, a code or the delivery; a script trying codes gets 60 a minute.
 */
export const CHECKOUT_PREVIEW_LIMIT: Limit = { max: 60, windowSeconds: 60 };

/** Payment requests per shopper: a retry or two after a decline, never a stream of phone prompts. */
export const PAYMENT_LIMIT: Limit = { max: 10, windowSeconds: 60 };

/** Status reads per shopper: the checkout polls every 2 s (30 a minute), with room for two tabs. */
export const PAYMENT_STATUS_LIMIT: Limit = { max: 90, windowSeconds: 60 };

/** "Tell me when it's back" per shopper: a few sizes of a few pieces, not a script. */
export const BACK_IN_STOCK_LIMIT: Limit = { max: 30, windowSeconds: 60 };
/** WhatsApp verification codes a shopper may ask for (each is a paid template): 3 an hour. */
export const WHATSAPP_CODE_LIMIT: Limit = { max: 3, windowSeconds: 60 * 60 };
/** Codes typed per minute: above the code's own 5 tries, so those are what a shopper meets. */
export const WHATSAPP_VERIFY_LIMIT: Limit = { max: 10, windowSeconds: 60 };
