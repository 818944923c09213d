// The receipt view (spec: account "Receipt view", §3 Receipt object): the receipt sheet, and
// Back to Order Details, Print Receipt, printing in a new window and Download PDF.
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Download, ExternalLink, Printer } from 'lucide-react';
import { type RefObject, useRef } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { DELIVERY_WORDING, deliveryLine, phoneText } from '#core/delivery-choice.ts';
import { formatUGX } from '#core/money.ts';
import { offersNote } from '#core/offer-codes.ts';
import { ORDERS_TEXT, PRINT_WINDOW_DELAY_MS } from '#core/order-rules.ts';
import {
  RECEIPT_TEXT,
  type Receipt,
  type ReceiptPayment,
  showsTax,
  tinLine,
} from '#core/receipt.ts';

/** Where the order's receipt PDF is served (its owner only). */
export const receiptPdfUrl = (orderId: string) => `/api/orders/${orderId}/receipt.pdf`;

export function ReceiptView({ orderId, onBack }: { orderId: string; onBack: () => void }) {
  const trpc = useTRPC();
  const receipt = useQuery(trpc.orders.receipt.queryOptions({ orderId }));
  const sheet = useRef<HTMLElement>(null);
  return (
    <div>
      <div className="print:hidden">
        <button
          type="button"
          className="inline-flex items-center gap-2 text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft hover:text-accent"
          onClick={onBack}
        >
          <ArrowLeft size={14} aria-hidden />
          {ORDERS_TEXT.backToDetails}
        </button>
        <div className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
          <button
            type="button"
            className="btn btn-primary px-4"
            disabled={!receipt.data}
            onClick={() => window.print()}
          >
            <Printer size={16} aria-hidden />
            {ORDERS_TEXT.printReceipt}
          </button>
          <a href={receiptPdfUrl(orderId)} download className="btn btn-outline px-4">
            <Download size={16} aria-hidden />
            {ORDERS_TEXT.downloadPdf}
          </a>
          <button
            type="button"
            className="btn btn-outline col-span-2 px-4"
            disabled={!receipt.data}
            onClick={() => receipt.data && printInNewWindow(sheet, receipt.data)}
          >
            <ExternalLink size={16} aria-hidden />
            Print in New Window
          </button>
        </div>
      </div>
      <div className="mt-6">
        {receipt.isError ? (
          <Notice tone="error">{ORDERS_TEXT.detailsFailed}</Notice>
        ) : receipt.data ? (
          <ReceiptSheet receipt={receipt.data} sheetRef={sheet} />
        ) : (
          <p role="status" className="py-16 text-center font-display text-2xl text-ink-soft">
            Loading receipt...
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * Print in a new window: the sheet alone, with the shop's stylesheet, printed after 500 ms (spec)
 * so the styles and fonts are in. The window closes itself once printing is done.
 */
function printInNewWindow(sheet: RefObject<HTMLElement | null>, receipt: Receipt) {
  const printable = sheet.current?.outerHTML;
  const win = printable ? window.open('', '_blank', 'popup,width=860,height=1000') : null;
  if (!win || !printable) {
    toast.error('Could not open a print window. Please allow pop-ups, or use Print Receipt.');
    return;
  }
  const styles = [...document.querySelectorAll('link[rel="stylesheet"], style')]
    .map((node) => node.outerHTML)
    .join('');
  win.document.write(
    `<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8"><title>${receipt.receiptNumber} · duuka</title>${styles}</head><body class="receipt-window">${printable}</body></html>`,
  );
  win.document.close();
  win.addEventListener('afterprint', () => win.close());
  win.setTimeout(() => {
    win.focus();
    win.print();
  }, PRINT_WINDOW_DELAY_MS);
}

/** The receipt itself: what prints, what the new window shows. */
export function ReceiptSheet({
  receipt,
  sheetRef,
}: {
  receipt: Receipt;
  sheetRef?: RefObject<HTMLElement | null>;
}) {
  const { address } = receipt.customerInfo;
  return (
    <article
      ref={sheetRef}
      aria-label={`${RECEIPT_TEXT.title} ${receipt.receiptNumber}`}
      className="receipt-sheet border border-line bg-paper px-5 py-7 text-ink sm:px-10 sm:py-10"
      data-testid="receipt"
    >
      <header className="flex flex-wrap items-end justify-between gap-4 border-b border-ink pb-5">
        <div>
          <p className="font-display text-4xl font-semibold leading-none tracking-wide">duuka</p>
          <p className="mt-2 text-xs uppercase tracking-[0.2em] text-ink-soft">
            Premium fashion · Kampala
          </p>
          {receipt.shop && (
            <p className="mt-2 text-xs text-ink-soft" data-testid="receipt-shop">
              {receipt.shop.address}
              {receipt.shop.tin && (
                <span className="block" data-testid="receipt-tin">
                  {tinLine(receipt.shop.tin)}
                </span>
              )}
            </p>
          )}
        </div>
        <div className="sm:text-right">
          <p className="eyebrow">{RECEIPT_TEXT.title}</p>
          <p className="mt-1 text-lg font-semibold tracking-wide">{receipt.receiptNumber}</p>
        </div>
      </header>

      {receipt.payment && <PaymentState payment={receipt.payment} />}

      <dl className="mt-6 grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-4">
        <Fact label={RECEIPT_TEXT.orderDate} value={receipt.date} />
        <Fact label={RECEIPT_TEXT.time} value={receipt.time} />
        <Fact label={RECEIPT_TEXT.paymentMethod} value={receipt.paymentMethod} />
        {receipt.transactionId && (
          <Fact label={RECEIPT_TEXT.transactionId} value={receipt.transactionId} breakAll />
        )}
      </dl>

      <section className="mt-7 border-t border-line pt-5" aria-labelledby="receipt-customer">
        <h3 id="receipt-customer" className="eyebrow">
          {RECEIPT_TEXT.customerInfo}
        </h3>
        <div className="mt-3 grid gap-1 text-sm sm:grid-cols-2 sm:gap-x-6">
          <div>
            <p className="font-semibold">{receipt.customerInfo.name}</p>
            {receipt.customerInfo.email && (
              <p className="break-all text-ink-soft">{receipt.customerInfo.email}</p>
            )}
            {receipt.customerInfo.phone && (
              <p className="text-ink-soft">{receipt.customerInfo.phone}</p>
            )}
          </div>
          <address className="not-italic text-ink-soft" data-testid="receipt-address">
            {address.street && <span className="block">{address.street}</span>}
            <span className="block">{address.city}</span>
            <span className="block">{address.country}</span>
          </address>
        </div>
      </section>

      {receipt.delivery && <ReceiptDeliverySection delivery={receipt.delivery} />}

      <section className="mt-7" aria-labelledby="receipt-items">
        <h3 id="receipt-items" className="eyebrow">
          {RECEIPT_TEXT.items}
        </h3>
        <table className="mt-3 w-full text-sm">
          <thead>
            <tr className="border-b border-ink text-left text-xs uppercase tracking-[0.12em] text-ink-soft">
              <th scope="col" className="py-2 pr-3 font-semibold">
                {RECEIPT_TEXT.item}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-semibold">
                {RECEIPT_TEXT.quantity}
              </th>
              <th scope="col" className="hidden px-2 py-2 text-right font-semibold sm:table-cell">
                {RECEIPT_TEXT.unitPrice}
              </th>
              <th scope="col" className="py-2 pl-2 text-right font-semibold">
                {RECEIPT_TEXT.lineTotal}
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.items.map((item) => (
              <tr key={item.id} className="border-b border-line align-top">
                <td className="py-3 pr-3">
                  <span className="font-medium">{item.name}</span>
                  {item.variant && (
                    <span
                      className="mt-0.5 block text-xs text-ink-soft"
                      data-testid="variant-label"
                    >
                      {item.variant}
                    </span>
                  )}
                  <span className="mt-0.5 block text-xs text-ink-soft sm:hidden">
                    {formatUGX(item.price)} each
                  </span>
                </td>
                <td className="px-2 py-3 text-right tabular-nums">{item.quantity}</td>
                <td className="hidden whitespace-nowrap px-2 py-3 text-right tabular-nums sm:table-cell">
                  {formatUGX(item.price)}
                </td>
                <td className="whitespace-nowrap py-3 pl-2 text-right tabular-nums">
                  {formatUGX(item.price * item.quantity)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <dl className="mt-5 ml-auto max-w-xs space-y-2 text-sm">
        <Amount label={RECEIPT_TEXT.subtotal} value={formatUGX(receipt.subtotal)} />
        <Amount
          label={RECEIPT_TEXT.deliveryFee}
          note={receipt.delivery?.option}
          value={formatUGX(receipt.deliveryFee)}
        />
        <Amount
          label={RECEIPT_TEXT.discount}
          note={receipt.offers?.length ? offersNote(receipt.offers) : undefined}
          value={receipt.discount > 0 ? `− ${formatUGX(receipt.discount)}` : formatUGX(0)}
          testId="receipt-discount"
        />
        {receipt.credit ? (
          <Amount
            label={RECEIPT_TEXT.credit}
            value={`− ${formatUGX(receipt.credit)}`}
            testId="receipt-credit"
          />
        ) : null}
        {showsTax(receipt) && <Amount label={RECEIPT_TEXT.tax} value={formatUGX(receipt.tax)} />}
        <div className="flex items-baseline justify-between gap-4 border-t border-ink pt-3">
          <dt className="text-xs font-semibold uppercase tracking-[0.16em]">
            {RECEIPT_TEXT.total}
          </dt>
          <dd className="font-display text-2xl font-semibold lining-nums tabular-nums">
            {formatUGX(receipt.total)}
          </dd>
        </div>
      </dl>

      <p className="mt-10 border-t border-line pt-5 text-center font-display text-lg italic text-ink-soft">
        {RECEIPT_TEXT.thanks}
      </p>
    </article>
  );
}

/** PAID (how, and the reference) or UNPAID; an unpaid bank transfer shows where to pay. */
function PaymentState({ payment }: { payment: ReceiptPayment }) {
  const paid = payment.state === 'paid';
  const transfer = payment.state === 'unpaid' ? payment.bankTransfer : null;
  return (
    <section className="mt-6" aria-label="Payment" data-testid="receipt-payment">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span
          data-state={payment.state}
          className={`inline-block border-2 px-3 py-1 text-sm font-bold tracking-[0.24em] ${
            paid ? 'border-success text-success' : 'border-danger text-danger'
          }`}
        >
          {paid ? RECEIPT_TEXT.paid : RECEIPT_TEXT.unpaid}
        </span>
        <span className="text-ink-soft">
          {paid
            ? [
                payment.method,
                payment.reference && `${RECEIPT_TEXT.reference} ${payment.reference}`,
              ]
                .filter(Boolean)
                .join(' · ')
            : RECEIPT_TEXT.awaitingPayment}
        </span>
      </p>
      {transfer && (
        <div className="mt-4 border border-accent/60 bg-paper-2 px-4 py-4 text-sm sm:px-5">
          <h3 className="eyebrow">{RECEIPT_TEXT.bankTransferTitle}</h3>
          <p className="mt-2 whitespace-pre-line break-words">
            {transfer.details ?? RECEIPT_TEXT.bankTransferMissing}
          </p>
          <p className="mt-3 font-semibold text-accent">
            {RECEIPT_TEXT.bankTransferQuote}{' '}
            <span className="whitespace-nowrap">{transfer.reference}</span>
          </p>
        </div>
      )}
    </section>
  );
}

function Fact({ label, value, breakAll }: { label: string; value: string; breakAll?: boolean }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">{label}</dt>
      <dd className={`mt-1 font-medium ${breakAll ? 'break-all' : ''}`}>{value}</dd>
    </div>
  );
}

function Amount({
  label,
  note,
  value,
  testId,
}: {
  label: string;
  note?: string;
  value: string;
  testId?: string;
}) {
  return (
    <div className="flex justify-between gap-4" data-testid={testId}>
      <dt className="text-ink-soft">
        {label}
        {note && <span className="block text-xs">{note}</span>}
      </dt>
      <dd className="whitespace-nowrap tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * How the order reaches the shopper: the option and where, what happens to a parcel sent
 * upcountry, the phone called (the rider's call, or ours when the parcel arrives), notes.
 */
function ReceiptDeliverySection({ delivery }: { delivery: NonNullable<Receipt['delivery']> }) {
  const phone = phoneText(delivery.phone);
  const wording = DELIVERY_WORDING[delivery.kind];
  return (
    <section className="mt-7 border-t border-line pt-5" aria-labelledby="receipt-delivery">
      <h3 id="receipt-delivery" className="eyebrow">
        {RECEIPT_TEXT.delivery}
      </h3>
      <p className="mt-3 text-sm font-semibold" data-testid="receipt-delivery">
        {deliveryLine(delivery)}
      </p>
      {wording.promise && <p className="mt-1 text-sm">{wording.promise}</p>}
      {(phone || delivery.notes) && (
        <dl className="mt-1 space-y-0.5 text-sm text-ink-soft">
          {phone && delivery.kind !== 'pickup' && (
            <div className="flex flex-wrap gap-x-2">
              <dt>{wording.calls}</dt>
              <dd className="tabular-nums">{phone}</dd>
            </div>
          )}
          {delivery.notes && (
            <div className="flex flex-wrap gap-x-2">
              <dt>{RECEIPT_TEXT.deliveryNotes}:</dt>
              <dd className="min-w-0 whitespace-pre-line break-words">{delivery.notes}</dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
