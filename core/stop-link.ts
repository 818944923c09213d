// The stop link every promotional text ends with (issue 35, decision 0085): its token, its path
// and its page's texts. Apart from the campaigns' rules: the stop page's route reads these in
// its loader, and what a route's options import lands in every page's first load.
import type { Limit } from './limits.ts';
import { SHOP_NAME } from './shop-name.ts';

/**
 * The stop link's token: 10 characters of an alphabet without look-alikes (no 0/o, 1/l/i), lower
 * case so a phone's link never changes case. 31^10 ≈ 8 × 10^14: guessing one is hopeless.
 */
export const STOP_TOKEN_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const STOP_TOKEN_LENGTH = 10;
const STOP_TOKEN = new RegExp(`^[${STOP_TOKEN_ALPHABET}]{${STOP_TOKEN_LENGTH}}$`);

export const isStopToken = (token: string) => STOP_TOKEN.test(token);

/** The first segment of the stop link: the shop's name as a path (`/duuka/stop/…`). */
export const STOP_SEGMENT = SHOP_NAME.toLowerCase();

/** The stop link a text carries: absolute, on the shop's own origin. */
export function stopLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/${STOP_SEGMENT}/stop/${token}`;
}

/** A token as the preview shows it (the real one is made per shopper when the text is queued). */
export const SAMPLE_STOP_TOKEN = 'x'.repeat(STOP_TOKEN_LENGTH);

/**
 * Opening and using stop links, per address: a person opens theirs once or twice; a script
 * trying tokens gets 30 tries in 10 minutes against 8 × 10^14 of them.
 */
export const STOP_LINK_LIMIT: Limit = { max: 30, windowSeconds: 10 * 60 };

/** The stop page's words. Never more of the shopper than a first name. */
export const STOP_TEXT = {
  title: `Stop offers from ${SHOP_NAME}?`,
  ask: (firstName: string | null) =>
    `${firstName ? `${firstName}, you` : 'You'} will no longer get texts about offers or your cart. Texts about your orders still come.`,
  button: 'Stop offers',
  done: 'Done: no more offers by text.',
  already: 'Offers by text are already off for this number.',
  again: 'You can switch them on again in your settings.',
  unknown: 'This stop link is not one of ours, or it was mistyped. No setting was changed.',
} as const;
