// The codes typed at the cart or checkout (issue 35), kept in this tab beside the cart: the cart
// page's codes are the checkout's, and they go with the order. Session storage (core/offer-codes.ts
// says why); a tiny external store so every screen of the tab sees a change at once.
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { OFFER_CODES_KEY, readSavedCodes, withCode, withoutCode } from '#core/offer-codes.ts';

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
function readText(): string | null {
  try {
    return sessionStorage.getItem(OFFER_CODES_KEY);
  } catch {
    return null;
  }
}
function writeCodes(codes: readonly string[]) {
  try {
    if (codes.length === 0) sessionStorage.removeItem(OFFER_CODES_KEY);
    else sessionStorage.setItem(OFFER_CODES_KEY, JSON.stringify(codes));
  } catch {
    // Storage blocked: the codes are lost with the page, the order is still right.
  }
  for (const listener of listeners) listener();
}

/** After an order is placed, its codes are spent: the next cart starts without them. */
export const forgetOfferCodes = () => writeCodes([]);

export type OfferCodes = {
  codes: string[];
  /** Adds a typed code; the reason when it cannot be (empty, already there, too many). */
  add: (typed: string) => { ok: true; code: string } | { ok: false; message: string };
  remove: (code: string) => void;
};

export function useOfferCodes(): OfferCodes {
  // The server renders without codes; the tab's codes show once the page runs.
  const text = useSyncExternalStore(subscribe, readText, () => null);
  const codes = useMemo(() => readSavedCodes(text), [text]);
  const add = useCallback((typed: string) => {
    const change = withCode(readSavedCodes(readText()), typed);
    if (!change.ok) return change;
    writeCodes(change.codes);
    return { ok: true as const, code: change.code };
  }, []);
  const remove = useCallback((code: string) => {
    writeCodes(withoutCode(readSavedCodes(readText()), code));
  }, []);
  return { codes, add, remove };
}
