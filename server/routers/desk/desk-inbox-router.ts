// The staff's WhatsApp inbox (issue 37): desk.inbox, desk.thread, desk.readThread, desk.reply,
// desk.sendPiece and desk.sendCartLink, for the shop's staff and owner (a customer gets FORBIDDEN,
// a visitor UNAUTHORIZED). Reading a thread changes nothing; the page marks it read with
// desk.readThread when it shows unread messages. Every message staff send is kept in the thread
// with who wrote it and in the desk's record.
import type { TRPCRouterRecord } from '@trpc/server';
import {
  DESK_INBOX_TEXT,
  replyInput,
  sendCartLinkInput,
  sendPieceInput,
  threadInput,
} from '#core/desk-inbox.ts';
import { WHATSAPP_TEXT, whatsAppAssistantInput } from '#core/whatsapp.ts';
import {
  inboxThreads,
  readThread,
  replyToShopper,
  type SendRefused,
  type Sent,
  sendCartLink,
  sendPiece,
  threadOf,
} from '../../services/desk-inbox-service.ts';
import { settingsFrom, settingsQuery } from '../../services/shop-settings.ts';
import { setWhatsAppAssistant, whatsAppUsageQuery } from '../../services/whatsapp-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const sendRefusal: Refusals<SendRefused['problem'], SendRefused> = {
  'not-configured': ['SERVICE_UNAVAILABLE', WHATSAPP_TEXT.notConfigured],
  stopped: ['CONFLICT', WHATSAPP_TEXT.stoppedNumber],
  'outside-window': ['CONFLICT', WHATSAPP_TEXT.outsideWindow],
  'piece-unavailable': ['NOT_FOUND', DESK_INBOX_TEXT.pieceUnavailable],
  // Meta said no when it was sent: the thread keeps it as failed, with the same reason.
  refused: [
    'BAD_GATEWAY',
    (refused) => WHATSAPP_TEXT.sendRefused('reason' in refused ? refused.reason : ''),
  ],
};

const answer = (sent: Sent | SendRefused) => {
  const { messageId, status } = accepted(sent, sendRefusal);
  return { messageId, status };
};

export const inboxDesk = {
  /** The threads, newest message first (at most 100), with unread counts and the account. */
  inbox: deskProcedure.query(({ ctx }) => inboxThreads(ctx.db)),

  /** One number's messages oldest first, its window and STOP, and the shopper's account, cart
   * and recent orders when the number is an account's. A number never written: an empty thread. */
  thread: deskProcedure.input(threadInput).query(({ ctx, input }) => threadOf(ctx.db, input.phone)),

  /** The thread is read (its unread count goes to 0); `read: false` for a number never written. */
  readThread: deskProcedure
    .input(threadInput)
    .mutation(({ ctx, input }) => readThread(ctx.db, input.phone)),

  /** Free text inside the 24-hour window, as the staff member who wrote it. */
  reply: deskProcedure
    .input(replyInput)
    .mutation(async ({ ctx, input }) => answer(await replyToShopper(ctx, ctx.user, input))),

  /** A piece's card (its picture, name, price in UGX and page) inside the window. */
  sendPiece: deskProcedure
    .input(sendPieceInput)
    .mutation(async ({ ctx, input }) => answer(await sendPiece(ctx, ctx.user, input))),

  /** The shop's link that fills her cart with these pieces, the pieces named, inside the window. */
  sendCartLink: deskProcedure
    .input(sendCartLinkInput)
    .mutation(async ({ ctx, input }) => answer(await sendCartLink(ctx, ctx.user, input))),

  /** WhatsApp on the desk (issue 37): when the assistant answers, and the messages per month
   * and Meta's pricing category; null: WhatsApp is not set up. */
  whatsapp: deskProcedure.query(async ({ ctx }) => {
    if (!ctx.sms.whatsapp) return null;
    const [settingRows, usage] = await ctx.db.batch([
      settingsQuery(ctx.db),
      whatsAppUsageQuery(ctx.db),
    ]);
    return { assistant: settingsFrom(settingRows, ctx).values.whatsappAssistant, usage };
  }),

  /** When the assistant answers WhatsApp: off, always, or outside the shop's hours. */
  setWhatsAppAssistant: deskProcedure
    .input(whatsAppAssistantInput)
    .mutation(({ ctx, input }) =>
      setWhatsAppAssistant(ctx.db, { email: ctx.user.email }, input.mode),
    ),
} satisfies TRPCRouterRecord;
