// The shop's totals for the cart as it is now (issue 35, `checkout.preview`): the discount, the
// offers that gave it, each line's saving, the gift card or credit spent and the total. The page
// shows these figures and never works them out itself.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '#app/trpc-client.ts';
import type { CheckoutPreview } from '#core/offers.ts';

/** How long a slow preview may hold the Place Order button: after this the shopper may go on
 * (the order's own answer is the truth, whatever the preview said). */
export const PREVIEW_PATIENCE_MS = 4000;

type Ask = {
  items: { variantId: number; quantity: number }[];
  codes: readonly string[];
  deliveryOptionId?: string;
  useCredit?: boolean;
  enabled?: boolean;
};

export function useCheckoutPreview({
  items,
  codes,
  deliveryOptionId,
  useCredit,
  enabled = true,
}: Ask) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.checkout.preview.queryOptions({
      items,
      ...(codes.length ? { codes: [...codes] } : {}),
      ...(deliveryOptionId ? { deliveryOptionId } : {}),
      ...(useCredit ? { useCredit } : {}),
    }),
    enabled: enabled && items.length > 0,
    // A new question keeps the last answer on screen until its own arrives: no jump.
    placeholderData: keepPreviousData,
    retry: 1,
  });
  const preview: CheckoutPreview | null = query.data ?? null;
  // Waiting on a slow link stops holding the button after PREVIEW_PATIENCE_MS.
  const [patient, setPatient] = useState(true);
  const fetching = query.isFetching;
  useEffect(() => {
    if (!fetching) {
      setPatient(true);
      return;
    }
    const timer = setTimeout(() => setPatient(false), PREVIEW_PATIENCE_MS);
    return () => clearTimeout(timer);
  }, [fetching]);
  return {
    preview,
    /** True while a new answer is on its way (the figures shown are the last ones). */
    updating: fetching,
    /** The button waits for the answer, but not for ever. */
    holding: fetching && patient,
  };
}

/** A line's saving from the preview (0: none, or no answer yet). */
export const lineSaving = (preview: CheckoutPreview | null, variantId: number) =>
  preview?.lines.find((line) => line.variantId === variantId)?.discount ?? 0;
