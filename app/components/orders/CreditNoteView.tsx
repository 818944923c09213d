// A refund's credit note (issue 36): the sheet, styled as the receipt's (ReceiptView), with Back
// to the order, Print and Download PDF.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, Download, Printer } from 'lucide-react';
import { Notice } from '#app/components/account/ui.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { formatUGX } from '#core/money.ts';
import { ORDERS_TEXT } from '#core/order-rules.ts';
import { CREDIT_NOTE_TEXT, type CreditNote, creditNoteDay } from '#core/returns.ts';

/** Where a credit note's PDF is served (its shopper only). */
export const creditNotePdfUrl = (refundId: string) => `/api/credit-notes/${refundId}`;

export function CreditNoteView({ orderId, refundId }: { orderId: string; refundId: string }) {
  const trpc = useTRPC();
  const note = useQuery(trpc.orders.creditNote.queryOptions({ refundId }, { retry: false }));
  return (
    <div>
      <div className="print:hidden">
        <Link
          to="/order-history/$orderId"
          params={{ orderId }}
          className="inline-flex items-center gap-2 text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft hover:text-accent"
        >
          <ArrowLeft size={14} aria-hidden />
          {CREDIT_NOTE_TEXT.back}
        </Link>
        <div className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
          <button
            type="button"
            className="btn btn-primary px-4"
            disabled={!note.data}
            onClick={() => window.print()}
          >
            <Printer size={16} aria-hidden />
            Print
          </button>
          <a href={creditNotePdfUrl(refundId)} download className="btn btn-outline px-4">
            <Download size={16} aria-hidden />
            {CREDIT_NOTE_TEXT.download}
          </a>
        </div>
      </div>
      <div className="mt-6">
        {note.isError ? (
          <Notice tone="error">{note.error.message || ORDERS_TEXT.detailsFailed}</Notice>
        ) : note.data ? (
          <CreditNoteSheet note={note.data} />
        ) : (
          <p role="status" className="py-16 text-center font-display text-2xl text-ink-soft">
            Loading credit note...
          </p>
        )}
      </div>
    </div>
  );
}

function CreditNoteSheet({ note }: { note: CreditNote }) {
  return (
    <article
      aria-label={`${CREDIT_NOTE_TEXT.title} ${note.number}`}
      className="receipt-sheet border border-line bg-paper px-5 py-7 text-ink sm:px-10 sm:py-10"
      data-testid="credit-note"
    >
      <header className="flex flex-wrap items-end justify-between gap-4 border-b border-ink pb-5">
        <div>
          <p className="font-display text-4xl font-semibold leading-none tracking-wide">duuka</p>
          <p className="mt-2 text-xs uppercase tracking-[0.2em] text-ink-soft">
            Premium fashion · Kampala
          </p>
        </div>
        <div className="sm:text-right">
          <p className="eyebrow">{CREDIT_NOTE_TEXT.title}</p>
          <p className="mt-1 text-lg font-semibold tracking-wide">{note.number}</p>
        </div>
      </header>

      <dl className="mt-6 grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-4">
        <Fact label={CREDIT_NOTE_TEXT.forOrder} value={note.orderRef} />
        <Fact label={CREDIT_NOTE_TEXT.date} value={creditNoteDay(note.date)} />
        <Fact label={CREDIT_NOTE_TEXT.method} value={note.methodLabel} />
        {note.reference && <Fact label={CREDIT_NOTE_TEXT.reference} value={note.reference} />}
        <Fact label={CREDIT_NOTE_TEXT.customer} value={note.customerName} />
      </dl>

      <section className="mt-7 border-t border-line pt-5" aria-labelledby="credit-note-pieces">
        <h3 id="credit-note-pieces" className="eyebrow">
          {CREDIT_NOTE_TEXT.pieces}
        </h3>
        {note.lines.length === 0 ? (
          <p className="mt-3 text-sm text-ink-soft">{CREDIT_NOTE_TEXT.noPieces}</p>
        ) : (
          <ul className="mt-3 text-sm">
            {note.lines.map((line) => (
              <li
                key={`${line.name}-${line.variantLabel}`}
                className="flex justify-between gap-4 border-b border-line py-3"
              >
                <span>
                  <span className="font-medium">
                    {line.quantity} × {line.name}
                  </span>
                  {line.variantLabel && (
                    <span className="mt-0.5 block text-xs text-ink-soft">{line.variantLabel}</span>
                  )}
                </span>
                <span className="whitespace-nowrap tabular-nums">
                  {formatUGX(line.price * line.quantity)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="mt-5 ml-auto flex max-w-xs items-baseline justify-between gap-4 border-t border-ink pt-3">
        <p className="text-xs font-semibold uppercase tracking-[0.16em]">
          {CREDIT_NOTE_TEXT.total}
        </p>
        <p
          className="font-display text-2xl font-semibold lining-nums tabular-nums"
          data-testid="credit-note-amount"
        >
          {formatUGX(note.amount)}
        </p>
      </div>
    </article>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">{label}</dt>
      <dd className="mt-1 break-words font-medium">{value}</dd>
    </div>
  );
}
