// The desk's gift cards and store credit (/desk/credit, issue 35): every gift card sold (its last
// 4, who it is for, what it was bought for and has left, issued or awaiting payment, its order) and
// every shopper's credit, each with every entry; and the form that grants credit with a reason.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import * as v from 'valibot';
import { Field, Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { formatUGX } from '#core/money.ts';
import { formatOrderDate, orderIdHead } from '#core/order-rules.ts';
import {
  CREDIT_GRANT_MAX,
  CREDIT_REASON_MAX,
  CREDIT_TEXT,
  grantCreditInput,
} from '#core/value-ledger.ts';

const T = CREDIT_TEXT;

export const Route = createFileRoute('/desk/credit')({
  head: privatePageHead('Gift cards & credit · Desk'),
  component: Credit,
});

type Accounts = ApiOutput['desk']['credit'];
type Entry = Accounts['credit'][number]['entries'][number];

function Credit() {
  const trpc = useTRPC();
  const accounts = useQuery(trpc.desk.credit.queryOptions());
  return (
    <DeskPage title={T.deskTitle}>
      <p className="mt-4 text-sm text-ink-soft">{T.deskIntro}</p>
      <GrantForm />
      {accounts.isError && (
        <div className="mt-6">
          <Notice tone="error">
            {errorMessage(accounts.error, 'Gift cards and credit could not be loaded.')}
          </Notice>
        </div>
      )}
      {accounts.data && (
        <div className="mt-10 grid gap-10 lg:grid-cols-2">
          <section aria-labelledby="gift-cards-heading" className="min-w-0">
            <h2 id="gift-cards-heading" className="font-display text-3xl">
              Gift cards
            </h2>
            {accounts.data.giftCards.length === 0 ? (
              <p className="mt-4 text-ink-soft">{T.noGiftCards}</p>
            ) : (
              <ul className="mt-4 grid gap-4" data-testid="gift-cards">
                {accounts.data.giftCards.map((card) => (
                  <li key={card.id} className="min-w-0 border border-line bg-paper p-5">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                      <p className="font-display text-2xl tabular-nums">
                        {card.last4 ? `•••• ${card.last4}` : '—'}
                      </p>
                      <span className="text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft">
                        {card.issuedAt ? T.issued : T.awaitingPayment}
                      </span>
                    </div>
                    <p className="mt-1 break-words">
                      For {card.recipientName ?? '—'}{' '}
                      <span className="text-ink-soft tabular-nums">{card.recipientPhone}</span>
                    </p>
                    {card.buyer && (
                      <p className="break-words text-sm text-ink-soft">From {card.buyer}</p>
                    )}
                    <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                      <div>
                        <dt className="text-ink-soft">Bought for</dt>
                        <dd className="font-medium tabular-nums">{formatUGX(card.amount)}</dd>
                      </div>
                      <div>
                        <dt className="text-ink-soft">Left</dt>
                        <dd className="font-medium tabular-nums">{formatUGX(card.balance)}</dd>
                      </div>
                    </dl>
                    {card.orderId && (
                      <Link
                        to="/desk/orders/$orderId"
                        params={{ orderId: card.orderId }}
                        className="mt-3 inline-flex min-h-11 items-center text-sm font-semibold text-accent underline-offset-4 hover:underline"
                      >
                        Order #{orderIdHead(card.orderId)}
                      </Link>
                    )}
                    <Entries entries={card.entries} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="credit-heading" className="min-w-0">
            <h2 id="credit-heading" className="font-display text-3xl">
              Store credit
            </h2>
            {accounts.data.credit.length === 0 ? (
              <p className="mt-4 text-ink-soft">{T.noCredit}</p>
            ) : (
              <ul className="mt-4 grid gap-4" data-testid="credit-accounts">
                {accounts.data.credit.map((account) => (
                  <li key={account.id} className="min-w-0 border border-line bg-paper p-5">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                      <p className="min-w-0 break-words font-display text-2xl">{account.shopper}</p>
                      <p className="font-medium tabular-nums">{formatUGX(account.balance)}</p>
                    </div>
                    {account.email && (
                      <p className="break-all text-sm text-ink-soft">{account.email}</p>
                    )}
                    <Entries entries={account.entries} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </DeskPage>
  );
}

function Entries({ entries }: { entries: Entry[] }) {
  if (entries.length === 0) return null;
  return (
    <ul className="mt-4 divide-y divide-line border-t border-line text-sm">
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2">
          <span className="min-w-0">
            <span className="font-medium">{T.entry[entry.reason] ?? entry.reason}</span>
            {entry.note && <span className="block break-words text-ink-soft">{entry.note}</span>}
            <span className="block text-xs text-ink-soft">
              {formatOrderDate(entry.createdAt)}
              {entry.orderId ? ` · #${orderIdHead(entry.orderId)}` : ''}
            </span>
          </span>
          <span className="tabular-nums">
            {entry.amount < 0 ? '−' : '+'}
            {formatUGX(Math.abs(entry.amount))}
            <span className="ml-2 text-xs text-ink-soft">= {formatUGX(entry.balanceAfter)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function GrantForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const grant = useMutation(trpc.desk.grantCredit.mutationOptions());
  const [email, setEmail] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // The grant's key until it is granted: a retry after a dropped connection grants once.
  const key = useRef<string | null>(null);
  const [problems, setProblems] = useState<Partial<Record<'email' | 'amount' | 'reason', string>>>(
    {},
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (grant.isPending) return;
    key.current ??= crypto.randomUUID();
    const checked = v.safeParse(grantCreditInput, {
      requestKey: key.current,
      email,
      amount: Number(amount.replace(/[\s,]/g, '')) || 0,
      reason,
    });
    if (!checked.success) {
      const found: typeof problems = {};
      for (const issue of checked.issues) {
        const key = v.getDotPath(issue) as keyof typeof problems | null;
        if (key && !(key in found)) found[key] = issue.message;
      }
      setProblems(found);
      return;
    }
    setProblems({});
    try {
      await grant.mutateAsync(checked.output);
      key.current = null;
      toast.success(T.granted(checked.output.amount, checked.output.email));
      setEmail('');
      setAmount('');
      setReason('');
      void queryClient.invalidateQueries({ queryKey: trpc.desk.credit.queryKey() });
    } catch (failure) {
      toast.error(errorMessage(failure, 'The credit could not be granted.'));
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="grant-heading"
      className="mt-8 max-w-3xl border border-line p-5 sm:p-6"
    >
      <h2 id="grant-heading" className="font-display text-2xl">
        {T.grant}
      </h2>
      <fieldset disabled={grant.isPending} className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field
          label="Shopper’s email"
          type="email"
          autoComplete="off"
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={problems.email}
        />
        <Field
          label={`Amount (UGX, up to ${formatUGX(CREDIT_GRANT_MAX)})`}
          inputMode="numeric"
          maxLength={12}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={problems.amount}
        />
        <Field
          className="sm:col-span-2"
          label="Reason"
          maxLength={CREDIT_REASON_MAX}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={problems.reason}
        />
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-primary min-h-12 w-full sm:w-auto">
            {grant.isPending ? 'Granting…' : T.grant}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
