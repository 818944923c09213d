// WhatsApp in integration tests (issue 37): the fake Cloud API on loopback, fast; the real
// adapter pointed at it; the shop's webhook served on loopback for the fake to call; and a wait
// for everything a step left running (the fake's webhooks, the shop's background work).
import { FAKE_WHATSAPP, type FakeWhatsApp, startFakeWhatsApp } from '#local/fakes/whatsapp-fake.ts';
import type { Context } from '#server/context.ts';
import { handleWhatsAppWebhook } from '#server/http/whatsapp-webhook.ts';
import { cloudApi, type WhatsApp } from '#server/services/whatsapp/cloud-api.ts';
import { type LoopbackHandler, serveOnLoopback } from './loopback-handler.ts';

/** The fake with statuses 5 ms apart and quick retries. */
export const startQuickFakeWhatsApp = () =>
  startFakeWhatsApp({ statusDelayMs: 5, retryDelaysMs: [20, 20, 20] });

/** The shop's WhatsApp set-up (a context's `sms.whatsapp`) talking to the fake. */
export function whatsAppOf(meta: FakeWhatsApp, token = FAKE_WHATSAPP.token): WhatsApp {
  return {
    api: cloudApi({
      baseUrl: meta.env.WHATSAPP_BASE_URL ?? '',
      token,
      phoneNumberId: FAKE_WHATSAPP.phoneNumberId,
    }),
    appSecret: FAKE_WHATSAPP.appSecret,
    verifyToken: FAKE_WHATSAPP.verifyToken,
  };
}

/** /api/whatsapp/webhook on loopback, each request with the context `context` makes; the fake
 * posts there from now on. */
export async function serveWebhook(
  meta: FakeWhatsApp,
  context: () => Context,
): Promise<LoopbackHandler> {
  const shop = await serveOnLoopback('/api/whatsapp/webhook', (request) =>
    handleWhatsAppWebhook(context(), request),
  );
  meta.setWebhookUrl(shop.url);
  return shop;
}

/** Waits until the fake has posted everything and the shop's background work is done. */
export async function settled(meta: FakeWhatsApp, background: Promise<unknown>[]): Promise<void> {
  for (;;) {
    await meta.idle();
    if (background.length === 0) return;
    await Promise.all(background.splice(0));
  }
}
