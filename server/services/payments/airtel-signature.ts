// When Airtel refuses the shop's signature (DP00800001026), every Airtel payment fails the same
// way until the owner changes a setting, and the shopper only reads "Mobile money is unavailable".
// So the refusal is kept (one system setting) and the desk's Money view says what to change; the
// next Airtel payment Airtel accepts removes it. Decision 0062.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { systemSettings } from '#db/schema/index.ts';
import type { AirtelRsaPadding, AirtelSignatureRefused } from './airtel-money.ts';

const SETTING = 'airtel_signature_refused';

type Refusal = { padding: AirtelRsaPadding; keyFrom: 'setting' | 'airtel' };

export async function noteAirtelSignatureRefused(db: Db, error: AirtelSignatureRefused) {
  const value = JSON.stringify({
    padding: error.padding,
    keyFrom: error.keyFrom,
  } satisfies Refusal);
  await db
    .insert(systemSettings)
    .values({ settingKey: SETTING, settingValue: value })
    .onConflictDoUpdate({
      target: systemSettings.settingKey,
      set: { settingValue: value, updatedAt: sql`now()` },
    });
}

/** Airtel took a payment request: its signature is right (again). */
export async function forgetAirtelSignatureRefused(db: Db) {
  await db.delete(systemSettings).where(eq(systemSettings.settingKey, SETTING));
}

/** The desk's sentence for a kept refusal (the setting's value), or null. */
export function airtelSignatureNotice(value: string | null | undefined): string | null {
  let refusal: Partial<Refusal> | null = null;
  try {
    refusal = JSON.parse(value ?? 'null');
  } catch {
    refusal = null;
  }
  if (refusal?.padding !== 'oaep' && refusal?.padding !== 'pkcs1') return null;
  const other = refusal.padding === 'oaep' ? 'pkcs1' : 'oaep';
  const key =
    refusal.keyFrom === 'setting'
      ? ' If Airtel refuses both, AIRTEL_PUBLIC_KEY is not its current key: remove it and the shop fetches Airtel’s own.'
      : '';
  return `Airtel refused the shop's signature: set AIRTEL_RSA_PADDING to ${other} (it is ${refusal.padding} now), then try an Airtel payment again. Until then every Airtel Money payment fails.${key}`;
}

/** The kept refusal's setting, for the Money view's one round trip. */
export const airtelSignatureSetting = (db: Db) =>
  db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, SETTING));
