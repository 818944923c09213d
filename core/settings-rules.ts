// A shopper's settings (spec: account §3 and §9) and what the browser keeps: the settings' shape
// and defaults, and the storage keys. Apart from account.ts so that every page's first load (the
// theme, the cart) does not carry every account message.

/** Browser storage keys (spec: account §3): the cached settings and a visitor's cart. */
export const SETTINGS_STORAGE_KEY = 'userSettings';
export const CART_STORAGE_KEY = 'cart';
/** Settings saved in this browser that every retry failed to send to the server (local storage). */
export const SETTINGS_UNSYNCED_KEY = 'userSettingsUnsynced';
/** Whose server cart the local copy mirrors (local storage); absent for a visitor's own cart. */
export const CART_OWNER_KEY = 'cartOwner';
/** The add a visitor asked for before signing in (session storage: this tab only). */
export const PENDING_ADD_KEY = 'pendingCartAdd';
/** One order id per checkout attempt (session storage), so a retry never makes two orders. */
export const ORDER_ATTEMPT_KEY = 'checkoutOrderAttempt';
/**
 * better-auth's cookie prefix (server/auth.ts): the session cookie is `duuka.session_token`
 * (`__Secure-duuka.session_token` on https). The cookie policy (core/legal.ts) names them.
 */
export const AUTH_COOKIE_PREFIX = 'duuka';

/** The session cookie's value in a Cookie header (`<prefix>.session_token`, `__Secure-` on https). */
export function sessionCookieIn(cookies: string | null): string | null {
  const names = [
    `${AUTH_COOKIE_PREFIX}.session_token`,
    `__Secure-${AUTH_COOKIE_PREFIX}.session_token`,
  ];
  for (const part of (cookies ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && names.includes(part.slice(0, at).trim())) return part.slice(at + 1).trim();
  }
  return null;
}

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Español' },
  { code: 'fr', label: 'Français' },
  { code: 'sw', label: 'Swahili' },
  { code: 'lg', label: 'Luganda' },
] as const;
export const CURRENCIES = ['UGX', 'USD', 'EUR', 'GBP'] as const;
export const VISIBILITIES = [
  { value: 'public', label: 'Public' },
  { value: 'private', label: 'Private' },
  { value: 'friends', label: 'Friends Only' },
] as const;

/** Where the shopper's order updates go (Settings → Notifications; issue 37): texts, or WhatsApp
 * when the shop has it (a message WhatsApp cannot deliver is texted instead). The list the
 * settings' input checks is core/account.ts' NOTIFICATION_CHANNELS (kept off every page's load). */
export type NotificationChannel = 'sms' | 'whatsapp';

export type Language = (typeof LANGUAGES)[number]['code'];
export type Currency = (typeof CURRENCIES)[number];
export type Visibility = (typeof VISIBILITIES)[number]['value'];

/** The settings screen's shape (spec: account §3). */
export type ShopperSettings = {
  notifications: {
    email: boolean;
    push: boolean;
    orderUpdates: boolean;
    promotions: boolean;
    /** How order updates are sent: 'sms' unless she chose WhatsApp. */
    channel: NotificationChannel;
  };
  /** darkMode null: the device's colour scheme (System); true/false: Dark/Light always.
   * lessData: "Use less data" (issue 38): small pictures in listings, a hero that stays still. */
  appearance: {
    darkMode: boolean | null;
    language: Language;
    currency: Currency;
    lessData: boolean;
  };
  privacy: { profileVisibility: Visibility; dataSharing: boolean; analytics: boolean };
  account: { displayName: string; twoFactorAuth: boolean };
};

export function defaultSettings(displayName = ''): ShopperSettings {
  return {
    notifications: {
      email: true,
      push: true,
      orderUpdates: true,
      promotions: false,
      channel: 'sms',
    },
    appearance: { darkMode: null, language: 'en', currency: 'UGX', lessData: false },
    privacy: { profileVisibility: 'private', dataSharing: false, analytics: true },
    account: { displayName, twoFactorAuth: false },
  };
}
