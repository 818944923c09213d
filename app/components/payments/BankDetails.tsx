// The shop's bank account for a transfer (BANK_TRANSFER_DETAILS) and, once the order exists, the
// reference to quote. Never an invented account: unset, the shop sends its details.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '#app/trpc-client.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';

/** Separate the free text's parts ("Bank · Account name: … · Account number: …") into lines. */
const lines = (details: string) =>
  details
    .split(/\s*[·\n]\s*/)
    .map((line) => line.trim())
    .filter(Boolean);

export function BankDetails({ reference }: { reference?: string }) {
  const trpc = useTRPC();
  const bank = useQuery(trpc.checkout.bankTransfer.queryOptions(undefined, { staleTime: 60_000 }));
  if (bank.isPending) {
    return <p className="text-sm text-ink-soft">Loading bank details...</p>;
  }
  const details = bank.data?.details ?? null;
  return (
    <div className="border border-line bg-paper-2/50 text-left" data-testid="bank-details">
      {reference && (
        <div className="border-b border-line px-5 py-4">
          <p className="text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft">
            {PAYMENT_STATE_TEXT.bankReference}
          </p>
          <p className="mt-1 font-display text-3xl font-semibold tracking-wide lining-nums select-all">
            {reference}
          </p>
        </div>
      )}
      <div className="px-5 py-4">
        <p className="text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft">
          {PAYMENT_STATE_TEXT.bankDetailsLabel}
        </p>
        {details ? (
          <ul className="mt-2 space-y-1 text-sm">
            {lines(details).map((line) => {
              const [label, value] = line.split(/:\s+(.*)/s);
              return (
                <li key={line} className="break-words">
                  {value ? (
                    <>
                      <span className="text-ink-soft">{label}: </span>
                      <span className="font-medium tabular-nums">{value}</span>
                    </>
                  ) : (
                    <span className="font-medium">{line}</span>
                  )}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="mt-2 text-sm">
            {reference
              ? PAYMENT_STATE_TEXT.bankDetailsUnset(reference)
              : PAYMENT_STATE_TEXT.bankDetailsUnsetBefore}
          </p>
        )}
      </div>
    </div>
  );
}
