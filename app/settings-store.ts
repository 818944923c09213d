// The local copy of the shopper's settings (browser storage key `userSettings`) and the
// appearance they set on the whole site: the theme. (The page's `lang` is always the language its
// text is written in — English until the shop is translated — whatever language is chosen.)
import { LESS_DATA_COOKIE } from '#core/less-data.ts';
import {
  CART_STORAGE_KEY,
  defaultSettings,
  SETTINGS_STORAGE_KEY,
  type ShopperSettings,
  SETTINGS_UNSYNCED_KEY as UNSYNCED_KEY,
} from '#core/settings-rules.ts';

export function readCachedSettings(): ShopperSettings | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? 'null');
    if (!saved || typeof saved !== 'object') return null;
    const base = defaultSettings();
    // Merge section by section so an older or partial copy still gives every field.
    return {
      notifications: { ...base.notifications, ...saved.notifications },
      appearance: { ...base.appearance, ...saved.appearance },
      privacy: { ...base.privacy, ...saved.privacy },
      account: { ...base.account, ...saved.account },
    };
  } catch {
    return null;
  }
}

/** Fired in this tab when the cached settings change (other tabs get the 'storage' event). */
const SETTINGS_CHANGED = 'duuka:settings';

export function writeCachedSettings(settings: ShopperSettings): void {
  try {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Storage full or blocked: the server copy still holds them.
  }
  keepLessDataCookie(settings.appearance.lessData);
  window.dispatchEvent(new Event(SETTINGS_CHANGED));
}

/** "Use less data" as a cookie too (core/less-data.ts): the server makes the next page light
 * before it is sent. A year from the last save; removed when turned off. */
function keepLessDataCookie(on: boolean): void {
  const secure = location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from older phones' browsers.
  document.cookie = on
    ? `${LESS_DATA_COOKIE}=1; path=/; max-age=31536000; samesite=lax${secure}`
    : `${LESS_DATA_COOKIE}=; path=/; max-age=0`;
}

/** For useSyncExternalStore: calls back whenever the cached settings may have changed. */
export function subscribeToSettings(changed: () => void): () => void {
  window.addEventListener('storage', changed);
  window.addEventListener(SETTINGS_CHANGED, changed);
  return () => {
    window.removeEventListener('storage', changed);
    window.removeEventListener(SETTINGS_CHANGED, changed);
  };
}

/** The currency the shopper chose to see approximate prices in ('UGX': none). */
export function cachedCurrency(): string {
  return readCachedSettings()?.appearance.currency ?? 'UGX';
}

/** Account deletion: the cached settings (and the less-data cookie) and the cart leave this browser. */
export function forgetLocalAccountData(): void {
  try {
    localStorage.removeItem(SETTINGS_STORAGE_KEY);
    localStorage.removeItem(CART_STORAGE_KEY);
    localStorage.removeItem(UNSYNCED_KEY);
  } catch {
    // Nothing to remove.
  }
  keepLessDataCookie(false);
  window.dispatchEvent(new Event(SETTINGS_CHANGED));
  applyAppearance(null);
}

/** The theme for the whole site, at once (null, or darkMode null: the device's scheme). */
export function applyAppearance(appearance: ShopperSettings['appearance'] | null): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (typeof appearance?.darkMode === 'boolean') {
    root.dataset.theme = appearance.darkMode ? 'dark' : 'light';
  } else {
    delete root.dataset.theme;
  }
}

/**
 * Runs in <head> before the first paint (app/routes/__root.tsx): the cached theme,
 * so a dark-mode shopper never sees a light flash on reload.
 */
export const APPEARANCE_BOOT_SCRIPT = `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(
  SETTINGS_STORAGE_KEY,
)})||'null'),a=s&&s.appearance;if(a&&typeof a.darkMode==='boolean'){document.documentElement.setAttribute('data-theme',a.darkMode?'dark':'light')}}catch(e){}`;

/** Settings saved here but not yet on the server (every retry failed): sent again later. */
export function markSettingsUnsynced(unsynced: boolean): void {
  try {
    if (unsynced) localStorage.setItem(UNSYNCED_KEY, '1');
    else localStorage.removeItem(UNSYNCED_KEY);
  } catch {
    // Storage blocked: nothing to remember.
  }
}

export function settingsUnsynced(): boolean {
  try {
    return localStorage.getItem(UNSYNCED_KEY) === '1';
  } catch {
    return false;
  }
}
