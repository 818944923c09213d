// A cart link opened (issue 37): `/cart?add=12x2,15x1` from a chat with the shop's staff. The lines
// are added once, each checked against the stock and the piece being on sale now, through the same
// add as the product page's Add to cart; the address bar is put back to plain /cart first, so a
// reload or Back adds nothing more (decision 0087). The page then says what became of each line.
// Loaded by the cart only when a link is opened: the cart's first load stays as it was.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Check, CircleAlert, CircleSlash, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useCart } from '#app/cart-store.tsx';
import { useSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import {
  CART_LINK_TEXT,
  type CartLinkItem,
  type CartLinkNote,
  parseCartLink,
  planCartLink,
} from '#core/cart-link.ts';
import { nameWithVariant } from '#core/variants.ts';

/** What the page shows of an opened link: its lines on their way, then a note for each. */
type CartLinkOutcome = { adding: true } | { adding: false; notes: CartLinkNote[] } | null;

const refused = (text: string): CartLinkNote => ({ tone: 'refused', text });

/**
 * Opens the link `add` (the cart route's search, as written) once the cart is known: the
 * address bar loses it at once, its lines go into the cart, and the outcome is what to show.
 */
function useCartLink(add: string | undefined): [CartLinkOutcome, () => void] {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { cart, ready, signedIn, addQuietly } = useCart();
  const session = useSession();
  const [outcome, setOutcome] = useState<CartLinkOutcome>(null);
  // The link being opened: React may run the effect twice for one link, it is opened once.
  const opened = useRef<string | null>(null);
  const cartNow = useRef(cart);
  cartNow.current = cart;

  useEffect(() => {
    if (add === undefined) {
      opened.current = null;
      return;
    }
    // Whose cart it is must be known (a visitor's in this browser, a shopper's on the server).
    if (!ready || session.isPending || opened.current === add) return;
    opened.current = add;
    void navigate({ to: '/cart', search: {}, replace: true });

    async function fill(items: CartLinkItem[]): Promise<CartLinkNote[]> {
      const variantIds = items.map((i) => i.variantId);
      const [pieces, current] = await Promise.all([
        queryClient.fetchQuery({
          ...trpc.cart.linkPieces.queryOptions({ variantIds }),
          staleTime: 0,
        }),
        // A shopper's cart as the server holds it now; a visitor's is this browser's.
        signedIn ? queryClient.ensureQueryData(trpc.cart.get.queryOptions()) : cartNow.current,
      ]);
      const notes: CartLinkNote[] = [];
      // One after another, in the link's order: each add is the product page's own.
      for (const step of planCartLink(current, items, pieces)) {
        const why = step.piece && (await addQuietly(step.piece, step.quantity));
        notes.push(
          step.piece && why
            ? refused(
                CART_LINK_TEXT.failed(nameWithVariant(step.piece.name, step.piece.label), why),
              )
            : step.note,
        );
      }
      return notes;
    }

    const items = parseCartLink(add);
    if (!items) {
      setOutcome({ adding: false, notes: [refused(CART_LINK_TEXT.broken)] });
      return;
    }
    setOutcome({ adding: true });
    fill(items).then(
      (notes) => setOutcome({ adding: false, notes }),
      () => setOutcome({ adding: false, notes: [refused(CART_LINK_TEXT.lookupFailed)] }),
    );
  }, [add, ready, session.isPending, signedIn, addQuietly, navigate, queryClient, trpc]);

  return [outcome, () => setOutcome(null)];
}

const TONE = {
  added: { Icon: Check, className: 'text-success' },
  lowered: { Icon: CircleAlert, className: 'text-accent' },
  refused: { Icon: CircleSlash, className: 'text-danger' },
} as const;

/**
 * Opens the link `add` (the cart route's search; undefined once the address bar has lost it) and
 * says, above the cart, what became of each of its lines.
 */
export default function CartLink({ add }: { add: string | undefined }) {
  const [outcome, onDismiss] = useCartLink(add);
  if (!outcome) return null;
  return (
    <section
      aria-labelledby="cart-link-heading"
      data-testid="cart-link-notes"
      className="relative mt-6 border border-gold/50 bg-paper-2/60 px-5 py-5 sm:px-7"
    >
      <h2 id="cart-link-heading" className="eyebrow pr-10">
        {CART_LINK_TEXT.heading}
      </h2>
      <div role="status" aria-live="polite" aria-busy={outcome.adding}>
        {outcome.adding ? (
          <p className="mt-3 text-sm text-ink-soft">{CART_LINK_TEXT.adding}</p>
        ) : (
          <ul className="mt-3 space-y-2 text-sm">
            {outcome.notes.map((note) => {
              const { Icon, className } = TONE[note.tone];
              return (
                <li key={note.text} data-tone={note.tone} className="flex items-start gap-3">
                  <Icon size={16} aria-hidden className={`mt-0.5 shrink-0 ${className}`} />
                  <span className="min-w-0">{note.text}</span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {!outcome.adding && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={CART_LINK_TEXT.dismiss}
          className="absolute top-2 right-2 grid size-11 place-items-center text-ink-soft hover:text-ink"
        >
          <X size={18} aria-hidden />
        </button>
      )}
    </section>
  );
}
