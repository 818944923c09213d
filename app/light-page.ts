// "Use less data" on the page (issue 38, core/less-data.ts): the server makes the page light when
// the request asks (Save-Data, or the setting's cookie) and writes why on <html data-less-data>;
// the browser reads that back to hydrate alike, then follows the shopper's setting as it changes.
import { useRouter } from '@tanstack/react-router';
import { getGlobalStartContext } from '@tanstack/react-start';
import { useSyncExternalStore } from 'react';
import type { LessData } from '#core/less-data.ts';
import { readCachedSettings, subscribeToSettings } from './settings-store';

/** Why this page was made light: on the server, the request (app/server.ts); in the browser,
 * what the server wrote on <html> (app/routes/__root.tsx). */
export function pageLessData(): LessData {
  if (typeof document === 'undefined') return getGlobalStartContext()?.lessData ?? null;
  const made = document.documentElement.dataset.lessData;
  return made === 'save-data' || made === 'setting' ? made : null;
}

/** Whether listings take their small pictures and the hero stays still: as the page was made
 * until it has hydrated, then the browser's Save-Data or the shopper's setting as it is now. */
export function useLessData(): boolean {
  const made = useRouter().options.context.lessData;
  return useSyncExternalStore(
    subscribeToSettings,
    () => made === 'save-data' || readCachedSettings()?.appearance.lessData === true,
    () => made !== null,
  );
}
