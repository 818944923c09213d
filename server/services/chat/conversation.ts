// The chat's messages (chat_messages) and what the assistant knows of the shopper when a message
// arrives. Spec: read failures give empty context; a failure to store a message is only logged.
import { and, desc, eq, ne } from 'drizzle-orm';
import {
  CHAT_HISTORY_LIMIT,
  type ChatProductCard,
  NEW_CUSTOMER_MAX_MESSAGES,
  RECENT_MESSAGES_IN_PROMPT,
  RECENT_ORDERS_IN_PROMPT,
  type SupportContact,
  storedCards,
} from '#core/chat.ts';
import { formatLongDate, receiptNumber } from '#core/order-rules.ts';
import { hoursText, placeText } from '#core/store-details.ts';
import type { Db } from '#db/client.ts';
import { chatMessages, orders, profiles, valueAccounts } from '#db/schema/index.ts';
import { choicesFrom, deliveryQueries } from '../delivery-service.ts';
import { liveOffersQuery, toOffer } from '../offers-service.ts';
import { shownToShopper } from '../orders-service.ts';
import { returnWindowsFrom, settingsQuery, storedFrom } from '../shop-settings.ts';
import type { ReplyMeta, ShopperContext } from './assistant.ts';

export type ChatMessage = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  /** The product cards shown under an assistant's reply, as they were when it was given. */
  products?: ChatProductCard[];
};

const visible = (row: typeof chatMessages.$inferSelect): ChatMessage => {
  const products = row.role === 'assistant' ? storedCards(row.metadata) : undefined;
  return {
    id: row.id,
    role: row.role as ChatMessage['role'],
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    ...(products ? { products } : {}),
  };
};

/** The shopper's messages (not system ones), oldest first; one session's when given. */
export async function chatHistory(
  db: Db,
  userId: string,
  sessionId?: string,
): Promise<ChatMessage[]> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, userId),
        ne(chatMessages.role, 'system'),
        sessionId ? eq(chatMessages.sessionId, sessionId) : undefined,
      ),
    )
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(CHAT_HISTORY_LIMIT);
  return rows.reverse().map(visible);
}

export async function clearChat(db: Db, userId: string): Promise<void> {
  await db.delete(chatMessages).where(eq(chatMessages.userId, userId));
}

export async function saveMessage(
  db: Db,
  message: {
    userId: string;
    sessionId: string;
    role: 'user' | 'assistant';
    content: string;
    meta?: ReplyMeta;
  },
): Promise<void> {
  try {
    await db.insert(chatMessages).values({
      userId: message.userId,
      sessionId: message.sessionId,
      role: message.role,
      content: message.content,
      metadata: message.meta ?? {},
    });
  } catch (error) {
    console.warn('Chat message could not be stored', error);
  }
}

/**
 * Spec: name, up to 3 recent orders, the last 4 messages, new when 3 or fewer; the shop's
 * support contact the assistant gives (the desk's settings, else `configured`); and its delivery
 * options and free-delivery threshold (issue 23); the offers live now and the shopper's own store
 * credit (issue 35); the return and exchange windows (issue 36). One round trip. When it fails
 * the context is empty and the delivery and windows unknown (null): the assistant then promises no
 * fee, time or number of days.
 */
export async function shopperContext(
  db: Db,
  user: { id: string; name: string },
  configured: SupportContact,
): Promise<ShopperContext & { contact: SupportContact }> {
  try {
    const [options, free] = deliveryQueries(db);
    const [[profile], recent, messages, settingRows, optionRows, freeRows, offerRows, credit] =
      await db.batch([
        db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, user.id)),
        db
          .select({
            id: orders.id,
            createdAt: orders.createdAt,
            total: orders.total,
            status: orders.status,
          })
          .from(orders)
          .where(shownToShopper(user.id))
          .orderBy(desc(orders.createdAt))
          .limit(RECENT_ORDERS_IN_PROMPT),
        db
          .select({ role: chatMessages.role, content: chatMessages.content })
          .from(chatMessages)
          .where(and(eq(chatMessages.userId, user.id), ne(chatMessages.role, 'system')))
          .orderBy(desc(chatMessages.createdAt))
          .limit(NEW_CUSTOMER_MAX_MESSAGES + 1),
        settingsQuery(db),
        options,
        free,
        liveOffersQuery(db),
        db
          .select({ balance: valueAccounts.balance })
          .from(valueAccounts)
          .where(and(eq(valueAccounts.kind, 'store_credit'), eq(valueAccounts.userId, user.id))),
      ]);
    const stored = storedFrom(settingRows);
    return {
      contact: {
        email: stored.supportEmail ?? configured.email,
        phone: stored.supportPhone ?? configured.phone,
        // The owner's hours and place (issue 34): the assistant knows them from the details.
        ...(stored.storeHours ? { hours: hoursText(stored.storeHours) } : {}),
        ...(stored.storeAddress
          ? {
              place: placeText({
                address: stored.storeAddress,
                landmark: stored.storeLandmark ?? null,
              }),
            }
          : {}),
      },
      name: profile?.fullName || user.name,
      recentOrders: recent.map((o) => ({
        reference: receiptNumber(o.id),
        date: formatLongDate(o.createdAt),
        total: o.total,
        status: o.status,
      })),
      lastMessages: messages
        .slice(0, RECENT_MESSAGES_IN_PROMPT)
        .reverse()
        .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
      newCustomer: messages.length <= NEW_CUSTOMER_MAX_MESSAGES,
      delivery: choicesFrom(optionRows, freeRows),
      offers: offerRows.map(toOffer),
      credit: credit[0]?.balance ?? 0,
      windows: returnWindowsFrom(settingRows),
    };
  } catch (error) {
    console.warn('Chat context could not be read', error);
    return {
      name: user.name,
      recentOrders: [],
      lastMessages: [],
      newCustomer: true,
      delivery: null,
      offers: null,
      credit: null,
      windows: null,
      contact: configured,
    };
  }
}
