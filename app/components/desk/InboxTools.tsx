// Under a WhatsApp thread's reply box (issue 37): the catalogue searched (the desk's stock search)
// to send a piece as a card (its picture, name, price and page) or to gather pieces into a cart
// link (/cart?add=…) sent with the pieces named. Only inside the 24-hour window, as a reply.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Minus, Plus, ShoppingBag, X } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { inputClass, Notice } from '#app/components/account/ui.tsx';
import { errorMessage } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { CART_LINK_MAX_LINES } from '#core/cart-link.ts';
import { MAX_LINE_QUANTITY } from '#core/cart-rules.ts';
import { DESK_INBOX_TEXT } from '#core/desk-inbox.ts';
import { formatUGX } from '#core/money.ts';
import { nameWithVariant } from '#core/variants.ts';

const T = DESK_INBOX_TEXT;

type LinkLine = { variantId: number; name: string; label: string; price: number; quantity: number };

export function InboxTools({ phone, open }: { phone: string; open: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const searchId = useId();
  const [q, setQ] = useState('');
  const term = useDeferredValue(q.trim()).slice(0, 100);
  const [lines, setLines] = useState<LinkLine[]>([]);
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const found = useQuery({
    ...trpc.desk.stockSearch.queryOptions({ q: term }),
    enabled: open && term.length > 0,
  });
  const sent = async () => {
    setRequestKey(crypto.randomUUID());
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.desk.thread.queryKey({ phone }) }),
      queryClient.invalidateQueries({ queryKey: trpc.desk.inbox.queryKey() }),
    ]);
  };
  const piece = useMutation(trpc.desk.sendPiece.mutationOptions({ onSettled: sent }));
  const cartLink = useMutation(
    trpc.desk.sendCartLink.mutationOptions({
      onSuccess: () => {
        setLines([]);
        toast.success(T.linkSent);
      },
      onSettled: sent,
    }),
  );
  const failed = piece.error ?? cartLink.error;

  const add = (line: Omit<LinkLine, 'quantity'>) =>
    setLines((now) =>
      now.some((l) => l.variantId === line.variantId)
        ? now.map((l) =>
            l.variantId === line.variantId
              ? { ...l, quantity: Math.min(l.quantity + 1, MAX_LINE_QUANTITY) }
              : l,
          )
        : now.length >= CART_LINK_MAX_LINES
          ? now
          : [...now, { ...line, quantity: 1 }],
    );
  const change = (variantId: number, by: number) =>
    setLines((now) =>
      now.flatMap((l) => {
        if (l.variantId !== variantId) return [l];
        const quantity = Math.min(l.quantity + by, MAX_LINE_QUANTITY);
        return quantity < 1 ? [] : [{ ...l, quantity }];
      }),
    );

  if (!open) return null;
  return (
    <details className="group mt-4 border border-line" data-testid="inbox-tools">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 px-4 text-sm font-semibold [&::-webkit-details-marker]:hidden">
        <span className="inline-flex items-center gap-2">
          <ShoppingBag size={16} aria-hidden /> {T.tools}
        </span>
        <Plus size={16} aria-hidden className="transition-transform group-open:rotate-45" />
      </summary>
      <div className="grid gap-5 border-t border-line px-4 pt-4 pb-5">
        <div>
          <label htmlFor={searchId} className="text-xs font-semibold uppercase tracking-[0.16em]">
            {T.search}
          </label>
          <input
            id={searchId}
            type="search"
            value={q}
            maxLength={100}
            onChange={(event) => setQ(event.target.value)}
            placeholder="Ankara, DK-0042…"
            className={inputClass}
            data-testid="inbox-search"
          />
          {found.isError && (
            <div className="mt-3">
              <Notice tone="error">{errorMessage(found.error, 'The search failed.')}</Notice>
            </div>
          )}
          {term && found.data && (
            <ul
              aria-label="Pieces found"
              className="mt-3 divide-y divide-line border-y border-line"
            >
              {found.data.length === 0 && (
                <li className="py-3 text-sm text-ink-soft">{T.noPieces}</li>
              )}
              {found.data.map((row) => {
                const onSale = row.status === 'published';
                const line = {
                  variantId: row.variantId,
                  name: row.name,
                  label: row.label,
                  price: Number(row.price),
                };
                return (
                  <li
                    key={row.variantId}
                    className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3"
                    data-testid="inbox-found"
                  >
                    <div className="min-w-0 flex-1 basis-40">
                      <p className="break-words font-medium">{row.name}</p>
                      <p className="text-sm text-ink-soft">
                        {[row.label, formatUGX(line.price), `${row.stock} left`]
                          .filter(Boolean)
                          .join(' · ')}
                      </p>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <button
                        type="button"
                        className="btn btn-outline min-h-11 px-3"
                        disabled={!onSale || piece.isPending}
                        onClick={() =>
                          piece.mutate(
                            {
                              phone,
                              productId: row.productId,
                              variantId: row.variantId,
                              requestKey,
                            },
                            {
                              onSuccess: () =>
                                toast.success(T.pieceSent(nameWithVariant(row.name, row.label))),
                            },
                          )
                        }
                      >
                        {T.sendPiece}
                      </button>
                      <button
                        type="button"
                        className="btn btn-outline min-h-11 px-3"
                        disabled={!onSale || row.stock < 1}
                        onClick={() => add(line)}
                      >
                        {T.addToLink}
                      </button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <div data-testid="inbox-link">
          <p className="text-xs font-semibold uppercase tracking-[0.16em]">{T.link}</p>
          {lines.length === 0 ? (
            <p className="mt-2 text-sm text-ink-soft">{T.linkEmpty}</p>
          ) : (
            <ul className="mt-2 divide-y divide-line border-y border-line">
              {lines.map((line) => (
                <li key={line.variantId} className="flex items-center gap-3 py-2">
                  <span className="min-w-0 flex-1 break-words text-sm">
                    {nameWithVariant(line.name, line.label)}
                    <span className="block text-xs text-ink-soft tabular-nums">
                      {formatUGX(line.price)}
                    </span>
                  </span>
                  <span className="flex shrink-0 items-center">
                    <button
                      type="button"
                      aria-label={`One less ${line.name}`}
                      onClick={() => change(line.variantId, -1)}
                      className="grid size-11 place-items-center text-ink-soft hover:text-ink"
                    >
                      {line.quantity === 1 ? (
                        <X size={15} aria-hidden />
                      ) : (
                        <Minus size={15} aria-hidden />
                      )}
                    </button>
                    <span className="w-7 text-center text-sm tabular-nums">{line.quantity}</span>
                    <button
                      type="button"
                      aria-label={`One more ${line.name}`}
                      onClick={() => change(line.variantId, 1)}
                      className="grid size-11 place-items-center text-ink-soft hover:text-ink"
                    >
                      <Plus size={15} aria-hidden />
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            className="btn btn-primary mt-3 min-h-12 w-full sm:w-auto"
            disabled={lines.length === 0 || cartLink.isPending}
            onClick={() =>
              cartLink.mutate({
                phone,
                items: lines.map(({ variantId, quantity }) => ({ variantId, quantity })),
                requestKey,
              })
            }
          >
            {cartLink.isPending ? T.sending : T.sendLink}
          </button>
        </div>
        {failed && (
          <Notice tone="error">{errorMessage(failed, 'The message could not be sent.')}</Notice>
        )}
      </div>
    </details>
  );
}
