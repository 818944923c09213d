// The assistant on WhatsApp (issue 37, decision 0088): when the owner turned it on (always, or
// outside the shop's hours) it answers a shopper's message with the site's assistant
// (server/services/chat/assistant.ts), its stream gathered into one reply. Anyone gets the
// catalogue; a shopper's own orders only when the number is verified on her account
// (whatsapp_verifications), never from the number alone. "Talk to a person" hands the thread to
// staff for 24 hours, and says so.
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { cardHref } from '#core/chat.ts';
import { formatUGX } from '#core/money.ts';
import {
  asksForPerson,
  HANDED_OVER_S,
  WHATSAPP_ASSISTANT_TEXT,
  WHATSAPP_TEXT_MAX,
  withinHours,
} from '#core/whatsapp.ts';
import {
  user,
  whatsappContacts,
  whatsappMessages,
  whatsappVerifications,
} from '#db/schema/index.ts';
import type { Context } from '../context.ts';
import type { ReplyMeta } from './chat/assistant.ts';
import { shopperContext } from './chat/conversation.ts';
import { settingsFrom, settingsQuery } from './shop-settings.ts';
import type { WhatsApp } from './whatsapp/cloud-api.ts';
import { sendText } from './whatsapp-service.ts';

/** The thread's last messages the model is given (as the site's chat gives its own). */
const THREAD_IN_PROMPT = 10;

export type WhatsAppAsker = { phone: string; name: string | null; body: string; wamid: string };

/** Answers one new inbound message, or leaves it to staff. Never throws. */
export async function answerOnWhatsApp(
  ctx: Context & { whatsapp: WhatsApp },
  asker: WhatsAppAsker,
  now = new Date(),
): Promise<void> {
  try {
    const [settingRows, [contact], [verified], thread] = await ctx.db.batch([
      settingsQuery(ctx.db),
      ctx.db
        .select({
          stopped: sql<boolean>`${whatsappContacts.stoppedAt} is not null`,
          handedOver: sql<boolean>`coalesce(${whatsappContacts.handedOverAt} > now() - make_interval(secs => ${HANDED_OVER_S}), false)`,
        })
        .from(whatsappContacts)
        .where(eq(whatsappContacts.phone, asker.phone)),
      ctx.db
        .select({ id: user.id, name: user.name, email: user.email })
        .from(whatsappVerifications)
        .innerJoin(user, eq(user.id, whatsappVerifications.userId))
        .where(
          and(
            eq(whatsappVerifications.phone, asker.phone),
            isNotNull(whatsappVerifications.verifiedAt),
          ),
        ),
      ctx.db
        .select({
          direction: whatsappMessages.direction,
          body: whatsappMessages.body,
          wamid: whatsappMessages.wamid,
        })
        .from(whatsappMessages)
        .where(eq(whatsappMessages.phone, asker.phone))
        .orderBy(desc(whatsappMessages.createdAt))
        .limit(THREAD_IN_PROMPT + 1),
    ]);
    const settings = settingsFrom(settingRows, ctx).values;
    if (settings.whatsappAssistant === 'off') return;
    if (settings.whatsappAssistant === 'after_hours' && withinHours(settings.storeHours, now))
      return;
    if (contact?.stopped || contact?.handedOver) return;
    if (asksForPerson(asker.body)) {
      await ctx.db
        .update(whatsappContacts)
        .set({ handedOverAt: sql`now()` })
        .where(eq(whatsappContacts.phone, asker.phone));
      await sendText(ctx, asker.phone, WHATSAPP_ASSISTANT_TEXT.handedOver, null, true);
      return;
    }
    // Nobody's account unless verified: the context's reads then find nothing of anyone's.
    const shopper = verified ?? { id: '', name: asker.name ?? '', email: '' };
    const { contact: support, ...context } = await shopperContext(
      ctx.db,
      shopper,
      ctx.assistant.contact,
    );
    const earlier = thread
      .filter((message) => message.wamid !== asker.wamid)
      .slice(0, THREAD_IN_PROMPT)
      .reverse()
      .map((message) => ({
        role: message.direction === 'in' ? ('user' as const) : ('assistant' as const),
        content: message.body,
      }));
    const { reply } = await import('./chat/assistant.ts');
    const meta: ReplyMeta = { model: null, tools: [], fallback: null };
    let said = '';
    const links: string[] = [];
    const origin = ctx.payments.callbackOrigin.replace(/\/+$/, '');
    for await (const part of reply(
      ctx.db,
      { ...ctx.assistant, contact: support },
      shopper,
      { ...context, lastMessages: earlier, whatsapp: { verified: verified !== undefined } },
      asker.body,
      meta,
    )) {
      if (typeof part === 'string') said += part;
      else {
        for (const card of part.data.slice(0, 3)) {
          links.push(`${card.name}, ${formatUGX(card.price)}: ${origin}${cardHref(card)}`);
        }
      }
    }
    const answer = [said.trim(), ...links].filter(Boolean).join('\n\n').slice(0, WHATSAPP_TEXT_MAX);
    if (answer) await sendText(ctx, asker.phone, answer, null, true);
  } catch (error) {
    console.error(`The assistant could not answer ${asker.phone} on WhatsApp`, error);
  }
}
