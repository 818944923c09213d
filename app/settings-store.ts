// The local copy of the shopper's settings (browser storage key `userSettings`) and the
// appearance they set on the whole site: theme and document language.
import {
  CART_STORAGE_KEY,
  defaultSettings,
  SETTINGS_STORAGE_KEY,
  type ShopperSettings,
} from '#core/account.ts';

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

export function writeCachedSettings(settings: ShopperSettings): void {
  try {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Storage full or blocked: the server copy still holds them.
  }
}

/** Account deletion: the cached settings and the cart leave this browser. */
export function forgetLocalAccountData(): void {
  try {
    localStorage.removeItem(SETTINGS_STORAGE_KEY);
    localStorage.removeItem(CART_STORAGE_KEY);
    localStorage.removeItem(UNSYNCED_KEY);
  } catch {
    // Nothing to remove.
  }
  applyAppearance(null);
}

/** Dark mode and language for the whole site, at once (null: back to the visitor's system). */
export function applyAppearance(appearance: ShopperSettings['appearance'] | null): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (appearance) {
    root.dataset.theme = appearance.darkMode ? 'dark' : 'light';
    root.lang = appearance.language;
  } else {
    delete root.dataset.theme;
    root.lang = 'en';
  }
}

/**
 * Runs in <head> before the first paint (app/routes/__root.tsx): the cached theme and language,
 * so a dark-mode shopper never sees a light flash on reload.
 */
export const APPEARANCE_BOOT_SCRIPT = `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(
  SETTINGS_STORAGE_KEY,
)})||'null'),a=s&&s.appearance;if(a){var r=document.documentElement;r.setAttribute('data-theme',a.darkMode?'dark':'light');if(typeof a.language==='string')r.lang=a.language}}catch(e){}`;

const UNSYNCED_KEY = 'userSettingsUnsynced';

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
