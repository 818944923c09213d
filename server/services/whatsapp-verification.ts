// "Verify on WhatsApp" (issue 37): a 6-digit code sent to the shopper's profile number as the
// authentication template, entered on the site. The code is kept only as its SHA-256, lives 10
// minutes and allows 5 tries; a number is verified for one account at a time (a unique index),
// the newest verification taking it over.
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { isValidPhone, normalisePhone } from '#core/phone.ts';
import {
  VERIFICATION_TEMPLATE,
  VERIFY_CODE_TTL_S,
  VERIFY_MAX_ATTEMPTS,
  WHATSAPP_TEXT,
  WHATSAPP_VERIFY_TEXT,
} from '#core/whatsapp.ts';
import { profiles, whatsappVerifications } from '#db/schema/index.ts';
import type { Texting } from './sms-service.ts';

type Refusal = { ok: false; message: string };

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function sixDigits(): string {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return String((n ?? 0) % 1_000_000).padStart(6, '0');
}

/** What the Settings screen shows: her number, and whether it is verified on WhatsApp. */
export async function whatsAppVerification(ctx: Texting, userId: string) {
  const [[profile], [row]] = await ctx.db.batch([
    ctx.db.select({ phone: profiles.phone }).from(profiles).where(eq(profiles.id, userId)),
    ctx.db
      .select({ phone: whatsappVerifications.phone, verifiedAt: whatsappVerifications.verifiedAt })
      .from(whatsappVerifications)
      .where(eq(whatsappVerifications.userId, userId)),
  ]);
  const phone = profile?.phone ? normalisePhone(profile.phone) : null;
  return {
    available: Boolean(ctx.sms.whatsapp),
    phone,
    verified: Boolean(row?.verifiedAt && row.phone === phone),
  };
}

/** Sends a new code to her profile number on WhatsApp. */
export async function sendVerificationCode(
  ctx: Texting,
  userId: string,
): Promise<{ ok: true; phone: string; message: string } | Refusal> {
  const whatsapp = ctx.sms.whatsapp;
  if (!whatsapp) return { ok: false, message: WHATSAPP_TEXT.notConfigured };
  const [profile] = await ctx.db
    .select({ phone: profiles.phone })
    .from(profiles)
    .where(eq(profiles.id, userId));
  const phone = profile?.phone ? normalisePhone(profile.phone) : '';
  if (!isValidPhone(phone)) return { ok: false, message: WHATSAPP_VERIFY_TEXT.noPhone };
  const code = sixDigits();
  const values = {
    phone,
    codeHash: await sha256(code),
    expiresAt: sql`now() + make_interval(secs => ${VERIFY_CODE_TTL_S})`,
    attempts: 0,
    updatedAt: sql`now()`,
  };
  await ctx.db
    .insert(whatsappVerifications)
    .values({ userId, ...values })
    .onConflictDoUpdate({
      target: whatsappVerifications.userId,
      // Another number starts again unverified.
      set: {
        ...values,
        verifiedAt: sql`case when ${whatsappVerifications.phone} = ${phone}
          then ${whatsappVerifications.verifiedAt} end`,
      },
    });
  const sent = await whatsapp.api
    .send({ to: phone, template: VERIFICATION_TEMPLATE, parameters: [code] })
    .catch(() => ({ ok: false as const }));
  if (!sent.ok) {
    await ctx.db
      .update(whatsappVerifications)
      .set({ codeHash: null, expiresAt: null })
      .where(eq(whatsappVerifications.userId, userId));
    return { ok: false, message: WHATSAPP_VERIFY_TEXT.notSent };
  }
  return { ok: true, phone, message: WHATSAPP_VERIFY_TEXT.sent(phone) };
}

/** Checks the code she typed; right, the number is hers on WhatsApp. */
export async function verifyWhatsAppCode(
  ctx: Texting,
  userId: string,
  code: string,
): Promise<{ ok: true; phone: string; message: string } | Refusal> {
  // Every try counts before the comparison, in the same statement that reads the code.
  const [row] = await ctx.db
    .update(whatsappVerifications)
    .set({ attempts: sql`${whatsappVerifications.attempts} + 1` })
    .where(and(eq(whatsappVerifications.userId, userId), isNotNull(whatsappVerifications.codeHash)))
    .returning({
      phone: whatsappVerifications.phone,
      codeHash: whatsappVerifications.codeHash,
      attempts: whatsappVerifications.attempts,
      expired: sql<boolean>`${whatsappVerifications.expiresAt} <= now()`,
    });
  if (!row) return { ok: false, message: WHATSAPP_VERIFY_TEXT.codeExpired };
  if (row.attempts > VERIFY_MAX_ATTEMPTS) {
    return { ok: false, message: WHATSAPP_VERIFY_TEXT.tooManyTries };
  }
  if (row.expired) return { ok: false, message: WHATSAPP_VERIFY_TEXT.codeExpired };
  if ((await sha256(code)) !== row.codeHash) {
    return { ok: false, message: WHATSAPP_VERIFY_TEXT.codeWrong };
  }
  await ctx.db.batch([
    // The number leaves any other account it was verified on.
    ctx.db
      .delete(whatsappVerifications)
      .where(
        and(
          eq(whatsappVerifications.phone, row.phone),
          ne(whatsappVerifications.userId, userId),
          isNotNull(whatsappVerifications.verifiedAt),
        ),
      ),
    ctx.db
      .update(whatsappVerifications)
      .set({ verifiedAt: sql`now()`, codeHash: null, expiresAt: null, updatedAt: sql`now()` })
      .where(eq(whatsappVerifications.userId, userId)),
  ]);
  return { ok: true, phone: row.phone, message: WHATSAPP_VERIFY_TEXT.verified(row.phone) };
}
