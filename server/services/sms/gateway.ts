// The one small interface an SMS gateway's adapter implements (EgoSMS today; Africa's Talking or
// another would be one more file). The outbox (server/services/sms-service.ts) decides what to retry.

export type OutgoingSms = { number: string; message: string };

export type SendResult =
  | { ok: true; messageId: string | null }
  /** transient: worth another attempt later (HTTP 5xx, time-out, network); else permanent. */
  | { ok: false; error: string; transient: boolean };

export interface SmsGateway {
  send(sms: OutgoingSms): Promise<SendResult>;
}
