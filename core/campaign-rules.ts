// Promotional texts (issue 35, decision 0085): a campaign the desk sends to the shoppers who
// switched Promotions on, the cart reminder, and the stop link every such text ends with. Pure:
// the sending is server/services/campaigns-service.ts, the reminder cart-reminders.ts.
import * as v from 'valibot';
import { idSchema } from './bounds.ts';
import { requestKey } from './desk-roles.ts';
import { formatUGX } from './money.ts';
import { SMS_MAX_CHARS } from './sms.ts';
import { STOP_TEXT } from './stop-link.ts';
import { invisibleCharacters, objectMessage, typedText } from './text.ts';

/**
 * What one text costs the shop, in UGX. EgoSMS bills per SMS part from prepaid credit and shows no
 * price through its API; Pahappa's published bulk rate for Ugandan networks is about UGX 35 a
 * part, so the desk's estimate uses it. Every promotional text is built to fit one part.
 */
export const SMS_PART_COST_UGX = 35;

/** The hours a cart waits before its reminder (spec: 24 hours after the newest line). */
export const CART_REMINDER_AFTER_HOURS = 24;

/** What a campaign's message may be at most as typed (the text's room is checked on sending). */
export const CAMPAIGN_MESSAGE_MAX = SMS_MAX_CHARS;

export const CAMPAIGNS_TEXT = {
  offerNotFound: 'Choose an offer that is still on.',
  categoryNotFound: 'Choose one of the shop’s categories.',
  messageNeeded: 'Write the message the shoppers will read.',
  messageTooLong: (room: number) =>
    `The message is too long for one text: at most ${room} characters with this offer.`,
  noAudience: 'Nobody in this audience has switched Promotions on. Nothing was sent.',
  badInput: 'Please check the campaign and try again.',
  sent: (queued: number) => `Sent to ${queued} ${queued === 1 ? 'shopper' : 'shoppers'}.`,
  audience: (count: number, cost: number) =>
    `${count} ${count === 1 ? 'shopper' : 'shoppers'} · about ${formatUGX(cost)}`,
  remindersOn: 'Cart reminders are on.',
  remindersOff: 'Cart reminders are off.',
} as const;

const message = typedText({
  notText: CAMPAIGNS_TEXT.messageNeeded,
  max: CAMPAIGN_MESSAGE_MAX,
  tooLong: CAMPAIGNS_TEXT.messageTooLong(CAMPAIGN_MESSAGE_MAX),
  invisible: invisibleCharacters('The message'),
});

const audience = {
  promotionId: idSchema(CAMPAIGNS_TEXT.offerNotFound),
  categoryId: v.optional(v.nullable(idSchema(CAMPAIGNS_TEXT.categoryNotFound))),
};

export const campaignAudienceInput = v.strictObject(
  { ...audience, message: v.optional(message) },
  objectMessage(CAMPAIGNS_TEXT.badInput),
);

export const sendCampaignInput = v.strictObject(
  {
    ...audience,
    message: v.pipe(message, v.minLength(1, CAMPAIGNS_TEXT.messageNeeded)),
    // Required: a double tap, or a retry after a dropped answer, must not text everyone twice.
    requestKey,
  },
  objectMessage(CAMPAIGNS_TEXT.badInput),
);

export const cartRemindersInput = v.strictObject(
  { on: v.boolean(CAMPAIGNS_TEXT.badInput) },
  objectMessage(CAMPAIGNS_TEXT.badInput),
);

const tokenSchema = v.pipe(v.string(STOP_TEXT.unknown), v.maxLength(64, STOP_TEXT.unknown));
export const stopTokenInput = v.strictObject(
  { token: tokenSchema },
  objectMessage(STOP_TEXT.unknown),
);

/** What the desk sees before sending: who, what it costs, the text as the first shopper gets it. */
export type CampaignAudience = {
  count: number;
  cost: number;
  preview: string;
  /** Characters the message may take with this offer's code and the shop's link. */
  room: number;
  /** The offer's code (null: automatic) and a stop link as the texts carry it (a sample token),
   * so the page shows the text as it is typed. */
  code: string | null;
  link: string;
};
