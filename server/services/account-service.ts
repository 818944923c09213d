// Profiles, settings and account deletion: what the account router and the auth hooks call.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { DELETED_CUSTOMER_NAME, type SettingsInput } from '#core/account.ts';
import type { NotificationChannel, ShopperSettings } from '#core/settings-rules.ts';
import type { Db } from '#db/client.ts';
import {
  mailOutbox,
  orders,
  profiles,
  receipts,
  smsNotifications,
  user,
  userSettings,
} from '#db/schema/index.ts';

export type Profile = typeof profiles.$inferSelect;

type Owner = { id: string; email: string; name?: string | null };

/** A new profile's row: the name given at registration, else the spec's 'New User'. */
function newProfile(owner: Owner) {
  const fullName = owner.name?.trim() ? owner.name.trim().slice(0, 100) : 'New User';
  return { id: owner.id, email: owner.email, fullName };
}

/**
 * The shopper's profile: one read when it exists (every visit but the first), created only when
 * missing (spec: a missing profile is created).
 */
export async function readProfile(db: Db, owner: Owner): Promise<Profile> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, owner.id));
  return row ?? ensureProfile(db, owner);
}

/**
 * Creates the profile, or reads it when it already exists (registration, and a first read that
 * found none): a duplicate insert race reads the existing row, so two racing first visits get the
 * same profile.
 */
export async function ensureProfile(db: Db, owner: Owner): Promise<Profile> {
  const [created] = await db
    .insert(profiles)
    .values(newProfile(owner))
    .onConflictDoNothing({ target: profiles.id })
    .returning();
  if (created) return created;
  // Someone else created it first. A new statement sees their committed row (one statement's
  // snapshot, taken before the insert waited for them, would not).
  const [row] = await db.select().from(profiles).where(eq(profiles.id, owner.id));
  if (!row) throw new Error('Could not fetch user profile');
  return row;
}

/**
 * Saves the edit in one round trip: the profile upserted (created with the edit when missing)
 * and the account's name following it, in one batch.
 */
export async function updateProfile(
  db: Db,
  owner: Owner,
  changes: { fullName: string; phone: string | null; address: string | null },
): Promise<Profile> {
  const now = new Date();
  const [[row]] = await db.batch([
    db
      .insert(profiles)
      .values({ ...newProfile(owner), ...changes })
      .onConflictDoUpdate({ target: profiles.id, set: { ...changes, updatedAt: now } })
      .returning(),
    db.update(user).set({ name: changes.fullName, updatedAt: now }).where(eq(user.id, owner.id)),
  ]);
  if (!row) throw new Error('Could not fetch user profile');
  return row;
}

/** Records the picture's URL on the profile (created when missing) and the account, in one batch. */
export async function setAvatar(db: Db, owner: Owner, avatarUrl: string | null): Promise<void> {
  const now = new Date();
  await db.batch([
    db
      .insert(profiles)
      .values({ ...newProfile(owner), avatarUrl })
      .onConflictDoUpdate({ target: profiles.id, set: { avatarUrl, updatedAt: now } }),
    db.update(user).set({ image: avatarUrl, updatedAt: now }).where(eq(user.id, owner.id)),
  ]);
}

type SettingsRow = typeof userSettings.$inferSelect;

function toShopperSettings(row: SettingsRow, displayName: string): ShopperSettings {
  return {
    notifications: {
      email: row.emailNotifications,
      push: row.pushNotifications,
      orderUpdates: row.orderUpdates,
      promotions: row.marketingNotifications,
      channel: row.notificationChannel as NotificationChannel,
    },
    appearance: {
      darkMode: row.darkMode,
      language: row.language as ShopperSettings['appearance']['language'],
      currency: row.currency as ShopperSettings['appearance']['currency'],
      lessData: row.lessData,
    },
    privacy: {
      profileVisibility: row.profileVisibility as ShopperSettings['privacy']['profileVisibility'],
      dataSharing: row.dataSharing,
      analytics: row.analytics,
    },
    account: { displayName: row.displayName ?? displayName, twoFactorAuth: row.twoFactorEnabled },
  };
}

/** The saved settings, or null when the shopper never saved any (the screen shows defaults). */
export async function readSettings(
  db: Db,
  owner: { id: string; name: string },
): Promise<ShopperSettings | null> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, owner.id));
  return row ? toShopperSettings(row, owner.name) : null;
}

/** Saves the settings; without a channel or "Use less data" (an older client), the stored ones
 * stay ('sms' and off at first). */
export async function saveSettings(
  db: Db,
  owner: { id: string; name: string },
  settings: SettingsInput,
): Promise<ShopperSettings> {
  const { channel } = settings.notifications;
  const { lessData } = settings.appearance;
  const values = {
    displayName: settings.account.displayName || null,
    darkMode: settings.appearance.darkMode,
    language: settings.appearance.language,
    currency: settings.appearance.currency,
    ...(lessData === undefined ? {} : { lessData }),
    emailNotifications: settings.notifications.email,
    pushNotifications: settings.notifications.push,
    orderUpdates: settings.notifications.orderUpdates,
    marketingNotifications: settings.notifications.promotions,
    ...(channel ? { notificationChannel: channel } : {}),
    profileVisibility: settings.privacy.profileVisibility,
    dataSharing: settings.privacy.dataSharing,
    analytics: settings.privacy.analytics,
    twoFactorEnabled: settings.account.twoFactorAuth,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(userSettings)
    .values({ userId: owner.id, ...values })
    .onConflictDoUpdate({ target: userSettings.userId, set: values })
    .returning();
  if (!row) throw new Error('Failed to save settings');
  return toShopperSettings(row, owner.name);
}

/**
 * Removes the person and keeps the shop's books (DESIGN: account deletion). One transaction:
 * their orders and receipts are detached and anonymised (the name, and where and whom a rider
 * went to: area, landmark, phone, notes), the SMS sent to them (about their orders, and the
 * back-in-stock texts to their number) lose the number and text, their mails leave the outbox, and deleting the user row cascades to sessions,
 * accounts, profile, settings, cart and chat history. The avatar is removed by the caller.
 */
export async function deleteAccount(db: Db, owner: { id: string; email: string }): Promise<void> {
  const theirOrders = db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.customerId, owner.id));
  await db.batch([
    db
      .update(smsNotifications)
      .set({
        recipientPhone: 'removed',
        messageContent: '[removed: the customer deleted their account]',
      })
      .where(
        and(
          eq(smsNotifications.recipientType, 'customer'),
          or(
            inArray(smsNotifications.orderId, theirOrders),
            and(
              eq(smsNotifications.kind, 'back-in-stock'),
              inArray(
                smsNotifications.recipientPhone,
                db
                  .select({ phone: sql<string>`${profiles.phone}` })
                  .from(profiles)
                  .where(eq(profiles.id, owner.id)),
              ),
            ),
          ),
        ),
      ),
    db
      .update(receipts)
      .set({
        customerId: null,
        receiptData: sql`jsonb_set(${receipts.receiptData}, '{customerInfo}', ${JSON.stringify({
          name: DELETED_CUSTOMER_NAME,
          email: null,
          phone: null,
          address: null,
        })}::jsonb, true) || case when ${receipts.receiptData} ? 'delivery'
          then jsonb_build_object('delivery', (${receipts.receiptData} -> 'delivery') || ${JSON.stringify(
            { area: '', landmark: '', phone: '', notes: '' },
          )}::jsonb)
          else '{}'::jsonb end`,
      })
      .where(eq(receipts.customerId, owner.id)),
    db
      .update(orders)
      .set({
        customerId: null,
        customerName: DELETED_CUSTOMER_NAME,
        deliveryArea: '',
        deliveryLandmark: '',
        deliveryPhone: null,
        deliveryNotes: '',
      })
      .where(eq(orders.customerId, owner.id)),
    db.delete(mailOutbox).where(eq(mailOutbox.recipient, owner.email.toLowerCase())),
    db.delete(user).where(eq(user.id, owner.id)),
  ]);
}
