import { useSyncExternalStore } from 'react';
import { OFFLINE_TEXT } from '#core/offline.ts';

function subscribe(changed: () => void) {
  addEventListener('online', changed);
  addEventListener('offline', changed);
  return () => {
    removeEventListener('online', changed);
    removeEventListener('offline', changed);
  };
}

/** Said under the header while the phone is offline (decision 0090): what the page shows was read
 * before, and what it asks for now waits for the network. */
export function OfflineNotice() {
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <p
      role="status"
      className="fixed inset-x-0 top-16 z-30 bg-ink px-4 py-2 text-center text-sm text-paper"
    >
      {OFFLINE_TEXT.title}. {OFFLINE_TEXT.prices}
    </p>
  );
}
