// "Use less data" (issue 38, decision 0091): when the browser sends `Save-Data: on`, or the shopper
// turned on "Use less data" in Settings, listings fetch only their small pictures and the home
// hero stays still. The setting reaches the server as a cookie the browser keeps beside its copy
// of the settings (app/settings-store.ts), so the page is made light before it is sent.

/** The cookie saying the shopper chose "Use less data" in this browser (`lessData=1`). */
export const LESS_DATA_COOKIE = 'lessData';
/** The one width a listing's picture is fetched at when saving data. */
export const LESS_DATA_WIDTH = 400;

/** Why a page is made light: the browser asked (Save-Data), or the shopper's setting; null: it is not. */
export type LessData = 'save-data' | 'setting' | null;

const SETTING_COOKIE = new RegExp(`(?:^|;)\\s*${LESS_DATA_COOKIE}=1\\s*(?:;|$)`);

/** What a request asks for: `Save-Data: on` (any case), else the setting's cookie. */
export function lessDataAsked(headers: Headers): LessData {
  const saveData = headers.get('save-data')?.split(';')[0]?.trim().toLowerCase();
  if (saveData === 'on') return 'save-data';
  return SETTING_COOKIE.test(headers.get('cookie') ?? '') ? 'setting' : null;
}
