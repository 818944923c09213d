// The desk's offers (issue 35, decision 0081): what desk.saveOffer takes, exactly the issue's
// shape (fields added, none renamed), its texts, and the Kampala-time helpers of the form's date
// and time inputs. Shared by the page (before sending) and the procedure (on arrival). Pure.
import * as v from 'valibot';
import { idSchema, wholeSchema } from './bounds.ts';
import { requestKey } from './desk-roles.ts';
import { isGiftCardCode } from './gift-cards.ts';
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import { OFFER_KINDS, type OfferKind } from './offers.ts';
import { invisibleCharacters, objectMessage, optionalText, typedText } from './text.ts';

export const OFFER_NAME_MAX = 80;
export const OFFER_TAG_MAX = 60;
/** Letters and digits, as a shopper types it from a poster or an influencer's post. */
const OFFER_CODE = /^[A-Za-z0-9]{2,20}$/;
export const OFFER_FIXED_MAX = 100_000_000;
export const OFFER_MIN_SUBTOTAL_MAX = 100_000_000;
/** More uses than a boutique's code could see: a slip of the thumb. */
export const OFFER_USES_MAX = 1_000_000;
export const OFFER_PER_SHOPPER_MAX = 1_000;
export const OFFER_QUANTITY_MAX = 100;
/** More targets than a form of checkboxes holds: a flood. */
export const OFFER_TARGETS_MAX = 500;

export const DESK_OFFERS_TEXT = {
  title: 'Offers',
  newOffer: 'New offer',
  editOffer: 'Edit offer',
  saved: 'Offer saved',
  none: 'No offers yet. A weekend sale or a code for an influencer brings shoppers back.',
  automatic: 'Automatic',
  invalid: 'Please check the offer and try again.',
  unknownField: 'This form sent something the desk does not know. Reload the page.',
  notText: (field: string) => `${field} must be text.`,
  nameNeeded: 'Give the offer a name, e.g. Weekend sale.',
  nameTooLong: `A name must be ${OFFER_NAME_MAX} characters or fewer.`,
  codeInvalid:
    'A code is 2 to 20 letters or digits, e.g. NAKATO10, or blank for an automatic offer.',
  codeLikeGiftCard: 'A code cannot look like a gift card’s (GIFT and 12 letters): choose another.',
  codeTaken: (code: string) => `Another offer already uses the code ${code}. Choose another code.`,
  kindInvalid:
    'Choose what the offer gives: percent off, amount off, free delivery or buy X get Y.',
  percentInvalid: 'Percent off must be a whole number from 1 to 100.',
  fixedInvalid: 'Amount off must be a whole number of shillings, from 1 to 100,000,000.',
  buyGetPercentInvalid: 'The Y pieces’ discount must be a whole percent from 1 to 100 (100: free).',
  valueInvalid: 'Value must be a whole number.',
  quantityInvalid: `Buy and get quantities must be whole numbers from 1 to ${OFFER_QUANTITY_MAX}.`,
  quantitiesNeeded: 'Buy X get Y needs how many to buy and how many get the discount.',
  minSubtotalInvalid: 'Minimum order must be a whole number of shillings, or blank for none.',
  dateInvalid: 'Dates must be a day and time, e.g. 2026-11-28 00:00, or blank.',
  endBeforeStart: 'The offer must end after it starts.',
  usageLimitInvalid: `Total uses must be a whole number from 1 to ${OFFER_USES_MAX.toLocaleString('en-US')}, or blank for no limit.`,
  perShopperInvalid: `Uses per shopper must be a whole number from 1 to ${OFFER_PER_SHOPPER_MAX}, or blank for no limit.`,
  tagTooLong: `A tag must be ${OFFER_TAG_MAX} characters or fewer.`,
  limitBelowUsed: (used: number) =>
    `This offer has been used ${used} times already: total uses cannot be fewer.`,
  targetsInvalid: 'Choose categories and pieces from the lists.',
  targetsTooMany: `An offer can name at most ${OFFER_TARGETS_MAX} categories or pieces.`,
  checkboxInvalid: 'Combinable, first order only and On are yes or no.',
  idInvalid: 'Offer not found. Reload the page.',
  notFound: 'Offer not found. Reload the page.',
  categoryGone: 'One of the chosen categories is not on the desk any more. Reload the page.',
  productGone: 'One of the chosen pieces is not on the desk any more. Reload the page.',
  thisWeekend: 'This weekend',
  states: {
    running: 'Running',
    scheduled: 'Scheduled',
    ended: 'Ended',
    'used-up': 'Used up',
    off: 'Off',
  },
} as const;
const T = DESK_OFFERS_TEXT;

/** Where an offer is in its life, as the desk's list shows it. */
export type OfferState = keyof typeof DESK_OFFERS_TEXT.states;

/** A whole-number field the desk may leave blank (null: none). */
const blankable = (min: number, max: number, message: string) =>
  v.nullish(wholeSchema(min, max, message));

/** An instant, as the form sends it (ISO with a zone, e.g. from `fromKampalaInput`); null: open. */
const instant = v.nullish(
  v.pipe(
    v.string(T.dateInvalid),
    v.maxLength(40, T.dateInvalid),
    v.isoTimestamp(T.dateInvalid),
    v.check((text) => Number.isFinite(Date.parse(text)), T.dateInvalid),
  ),
);

const ids = (message: string) =>
  v.optional(
    v.pipe(
      v.array(idSchema(message), message),
      v.maxLength(OFFER_TARGETS_MAX, T.targetsTooMany),
      v.transform((list) => [...new Set(list)]),
    ),
  );

/** desk.saveOffer's input: the issue's shape; no id: a new offer. */
export const saveOfferInput = v.pipe(
  v.strictObject(
    {
      id: v.optional(idSchema(T.idInvalid)),
      /** The page's key for this save: a double tap answers the first save (decision 0059). */
      requestKey: v.optional(requestKey),
      name: v.pipe(
        typedText({
          notText: T.notText('Name'),
          max: OFFER_NAME_MAX,
          tooLong: T.nameTooLong,
          invisible: invisibleCharacters('Name'),
        }),
        v.minLength(1, T.nameNeeded),
      ),
      code: v.pipe(
        optionalText(v.pipe(v.string(T.codeInvalid), v.trim(), v.maxLength(20, T.codeInvalid))),
        v.check((code) => code === null || OFFER_CODE.test(code), T.codeInvalid),
        v.check((code) => code === null || !isGiftCardCode(code), T.codeLikeGiftCard),
      ),
      kind: v.picklist(OFFER_KINDS, T.kindInvalid),
      value: wholeSchema(0, OFFER_FIXED_MAX, T.valueInvalid),
      appliesTo: v.nullable(
        v.strictObject(
          { categoryIds: ids(T.targetsInvalid), productIds: ids(T.targetsInvalid) },
          objectMessage(T.targetsInvalid),
        ),
      ),
      minSubtotal: blankable(0, OFFER_MIN_SUBTOTAL_MAX, T.minSubtotalInvalid),
      startsAt: instant,
      endsAt: instant,
      usageLimit: blankable(1, OFFER_USES_MAX, T.usageLimitInvalid),
      perShopperLimit: blankable(1, OFFER_PER_SHOPPER_MAX, T.perShopperInvalid),
      combinable: v.boolean(T.checkboxInvalid),
      buyQuantity: blankable(1, OFFER_QUANTITY_MAX, T.quantityInvalid),
      getQuantity: blankable(1, OFFER_QUANTITY_MAX, T.quantityInvalid),
      tag: v.pipe(
        optionalText(
          typedText({
            notText: T.notText('Tag'),
            max: OFFER_TAG_MAX,
            tooLong: T.tagTooLong,
            invisible: invisibleCharacters('Tag'),
          }),
        ),
      ),
      firstOrderOnly: v.optional(v.boolean(T.checkboxInvalid), false),
      active: v.boolean(T.checkboxInvalid),
    },
    objectMessage(T.unknownField, T.invalid),
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = valueProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
  v.check(
    (o) => !o.startsAt || !o.endsAt || Date.parse(o.startsAt) < Date.parse(o.endsAt),
    T.endBeforeStart,
  ),
  // What is stored: free delivery has no value; only buy X get Y has quantities; the dates as
  // the instants they name (one spelling, so the list and the checkout compare alike).
  v.transform((o) => ({
    ...o,
    value: o.kind === 'free_delivery' ? 0 : o.value,
    buyQuantity: o.kind === 'buy_x_get_y' ? (o.buyQuantity ?? null) : null,
    getQuantity: o.kind === 'buy_x_get_y' ? (o.getQuantity ?? null) : null,
    minSubtotal: o.minSubtotal || null,
    startsAt: o.startsAt ? new Date(o.startsAt).toISOString() : null,
    endsAt: o.endsAt ? new Date(o.endsAt).toISOString() : null,
    usageLimit: o.usageLimit ?? null,
    perShopperLimit: o.perShopperLimit ?? null,
    appliesTo: targetOf(o.appliesTo),
  })),
);
export type SavedOffer = v.InferOutput<typeof saveOfferInput>;

/** An empty target is the whole order. */
function targetOf(target: { categoryIds?: number[]; productIds?: number[] } | null) {
  const categoryIds = target?.categoryIds ?? [];
  const productIds = target?.productIds ?? [];
  return categoryIds.length === 0 && productIds.length === 0 ? null : { categoryIds, productIds };
}

/** What is wrong with the value for the kind (null: nothing). */
export function valueProblem(o: {
  kind: OfferKind;
  value: number;
  buyQuantity?: number | null;
  getQuantity?: number | null;
}): string | null {
  switch (o.kind) {
    case 'percent':
      return o.value >= 1 && o.value <= 100 ? null : T.percentInvalid;
    case 'fixed':
      return o.value >= 1 ? null : T.fixedInvalid;
    case 'buy_x_get_y':
      if (!o.buyQuantity || !o.getQuantity) return T.quantitiesNeeded;
      return o.value >= 1 && o.value <= 100 ? null : T.buyGetPercentInvalid;
    case 'free_delivery':
      return null;
  }
}

// Kampala time for the form's inputs (<input type="datetime-local"> holds no zone: the desk types
// Kampala's clock, UTC+3 all year).
const DAY_MS = 86_400_000;

/** An instant as a datetime-local input's value in Kampala ('2026-11-28T00:00'); '' for none. */
export function toKampalaInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  return new Date(at + KAMPALA_OFFSET_MS).toISOString().slice(0, 16);
}

/** A datetime-local value typed in Kampala as an instant (ISO, UTC); null for blank or unreadable. */
export function fromKampalaInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const at = Date.parse(`${value}:00.000Z`);
  return Number.isFinite(at) ? new Date(at - KAMPALA_OFFSET_MS).toISOString() : null;
}

/**
 * "This weekend": Saturday 00:00 to Monday 00:00 in Kampala. On a Saturday or a Sunday, the
 * weekend under way (its sale started on Saturday); on a weekday, the coming one.
 */
export function thisWeekend(now: Date): { startsAt: string; endsAt: string } {
  const local = now.getTime() + KAMPALA_OFFSET_MS;
  const midnight = Math.floor(local / DAY_MS) * DAY_MS;
  const day = new Date(midnight).getUTCDay(); // 0 Sunday … 6 Saturday, in Kampala
  const toSaturday = day === 0 ? -1 : 6 - day;
  const saturday = midnight + toSaturday * DAY_MS;
  return {
    startsAt: new Date(saturday - KAMPALA_OFFSET_MS).toISOString(),
    endsAt: new Date(saturday + 2 * DAY_MS - KAMPALA_OFFSET_MS).toISOString(),
  };
}

/** "Sat 28 Nov, 00:00" in Kampala, for the list. */
export function kampalaWhen(iso: string): string {
  const at = new Date(Date.parse(iso) + KAMPALA_OFFSET_MS);
  const day = at.toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  return `${day.replace(',', '')}, ${at.toISOString().slice(11, 16)}`;
}
