// Meta's WhatsApp Cloud API (issue 37, decision 0088): `POST {base}/{phone-number-id}/messages`
// with the system user's token. The one adapter the shop sends WhatsApp messages through; the
// fake (local/fakes/whatsapp-fake.ts) speaks the same shape on loopback and refuses what Meta
// refuses. Meta answers errors as { error: { message, type, code, error_data: { details } } }.
import {
  WHATSAPP_LANGUAGE,
  WHATSAPP_OUTSIDE_WINDOW,
  WHATSAPP_TIMEOUT_MS,
  type WhatsAppTemplate,
  whatsAppNumber,
} from '#core/whatsapp.ts';

/** One message: an approved template with its body parameters, free text, or a picture. */
export type WhatsAppMessage =
  | { to: string; template: WhatsAppTemplate; parameters: string[] }
  | { to: string; text: string }
  | { to: string; image: { link: string; caption?: string } };

export type WhatsAppResult =
  | { ok: true; messageId: string }
  /** `code`: Meta's error code (131047: outside the 24-hour window); transient: worth retrying. */
  | { ok: false; error: string; code: number | null; transient: boolean };

export interface WhatsAppApi {
  send(message: WhatsAppMessage): Promise<WhatsAppResult>;
}

/** The shop's WhatsApp set-up (null where WHATSAPP_* are not set). */
export type WhatsApp = {
  api: WhatsAppApi;
  /** Checks every webhook's X-Hub-Signature-256. */
  appSecret: string;
  /** Answers Meta's webhook verification. */
  verifyToken: string;
};

export type CloudApiConfig = {
  baseUrl: string;
  token: string;
  phoneNumberId: string;
  timeoutMs?: number;
};

type MetaError = { error?: { message?: string; code?: number; error_data?: { details?: string } } };

function payload(message: WhatsAppMessage) {
  const head = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: whatsAppNumber(message.to),
  };
  if ('template' in message) {
    return {
      ...head,
      type: 'template',
      template: {
        name: message.template.name,
        language: { code: WHATSAPP_LANGUAGE },
        components: [
          {
            type: 'body',
            parameters: message.parameters.map((text) => ({ type: 'text', text })),
          },
        ],
      },
    };
  }
  if ('text' in message) {
    return { ...head, type: 'text', text: { preview_url: true, body: message.text } };
  }
  return { ...head, type: 'image', image: message.image };
}

export function cloudApi(config: CloudApiConfig): WhatsAppApi {
  const timeoutMs = config.timeoutMs ?? WHATSAPP_TIMEOUT_MS;
  const url = `${config.baseUrl.replace(/\/$/, '')}/${config.phoneNumberId}/messages`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(payload(message)),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        return {
          ok: false,
          code: null,
          transient: true,
          error: timedOut
            ? `No answer from WhatsApp within ${timeoutMs / 1000} s`
            : `WhatsApp unreachable: ${String(error).slice(0, 200)}`,
        };
      }
      const body = (await response.json().catch(() => ({}))) as MetaError & {
        messages?: { id?: string }[];
      };
      const id = body.messages?.[0]?.id;
      if (response.ok && typeof id === 'string') return { ok: true, messageId: id };
      const code = typeof body.error?.code === 'number' ? body.error.code : null;
      const words = [body.error?.message, body.error?.error_data?.details]
        .filter(Boolean)
        .join(': ')
        .slice(0, 300);
      return {
        ok: false,
        code,
        // Meta's throttling (130429, 131056) and its own outages are worth another try.
        transient:
          response.status >= 500 ||
          response.status === 429 ||
          code === 130429 ||
          code === 131056 ||
          code === 131000,
        error:
          code === WHATSAPP_OUTSIDE_WINDOW
            ? `Outside the 24-hour window (${code})`
            : `WhatsApp answered HTTP ${response.status}${code ? ` (${code})` : ''}${words ? `: ${words}` : ''}`,
      };
    },
  };
}
