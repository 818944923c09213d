// The record (/desk/record, owner only: desk.record): every desk write, who made it and when,
// newest first, fifty at a time ("Older" reads the next page after the last one shown).
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { ORDER_RECORD_ACTIONS, orderRecordDetail, SETTING_LABELS } from '#core/desk-shop.ts';
import { formatOrderDate, formatTime } from '#core/order-rules.ts';

export const Route = createFileRoute('/desk/record')({
  head: privatePageHead('Record · Desk'),
  component: DeskRecord,
});

type Entry = ApiOutput['desk']['record']['records'][number];

function DeskRecord() {
  // The cursors of the pages shown: the first page, then each "Older".
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  return (
    <DeskPage title="Record">
      <p className="mt-4 text-sm text-ink-soft">Every change made at the desk, newest first.</p>
      <ul aria-label="Desk record" className="mt-6 divide-y divide-line border-y border-line">
        {pages.map((before, index) => (
          <Page
            key={before ?? 'newest'}
            before={before}
            last={index === pages.length - 1}
            onOlder={(next) => setPages((now) => [...now, next])}
          />
        ))}
      </ul>
    </DeskPage>
  );
}

function Page({
  before,
  last,
  onOlder,
}: {
  before: number | undefined;
  last: boolean;
  onOlder: (next: number) => void;
}) {
  const trpc = useTRPC();
  const page = useQuery(
    trpc.desk.record.queryOptions(before === undefined ? undefined : { before }),
  );
  if (page.isPending) {
    return (
      <li>
        <Loading text="Loading the record..." />
      </li>
    );
  }
  if (page.isError) {
    return (
      <li className="py-4">
        <Notice tone="error">{errorMessage(page.error, 'The record could not be loaded.')}</Notice>
      </li>
    );
  }
  const { records, next } = page.data;
  return (
    <>
      {records.length === 0 && before === undefined && (
        <li className="py-6 text-ink-soft">Nothing has been changed at the desk yet.</li>
      )}
      {records.map((entry) => (
        <Line key={entry.id} entry={entry} />
      ))}
      {last && next !== null && (
        <li className="py-4">
          <button type="button" className="btn btn-outline min-h-12" onClick={() => onOlder(next)}>
            Older
          </button>
        </li>
      )}
    </>
  );
}

const ACTIONS: Record<string, string> = {
  'settings.saved': 'Settings saved',
  'staff.added': 'Staff added',
  'staff.removed': 'Staff removed',
  'product.saved': 'Product saved',
  'stock.adjusted': 'Stock adjusted',
  'photos.set': 'Photos set',
  'delivery.saved': 'Delivery saved',
  ...ORDER_RECORD_ACTIONS,
  'details.saved': 'Shop details saved',
};

function Line({ entry }: { entry: Entry }) {
  const details = entry.details as { changed?: unknown; role?: unknown };
  // An order's move, payment, refund or note, in words (core/desk-order.ts).
  const about = orderRecordDetail(entry.action, entry.details);
  const changed = Array.isArray(details.changed)
    ? details.changed.map((name) => SETTING_LABELS[String(name)] ?? String(name)).join(', ')
    : null;
  return (
    <li className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <p className="text-sm text-ink-soft tabular-nums">
        <time dateTime={entry.createdAt}>
          {formatOrderDate(entry.createdAt)} {formatTime(entry.createdAt)}
        </time>
      </p>
      <div className="min-w-0">
        <p className="font-medium">
          {ACTIONS[entry.action] ?? entry.action}
          <span className="font-normal text-ink-soft"> · {entry.subject}</span>
        </p>
        {changed !== null && (
          <p className="text-sm text-ink-soft">{changed ? `Changed: ${changed}` : 'No change'}</p>
        )}
        {about && <p className="whitespace-pre-line break-words text-sm">{about}</p>}
        {typeof details.role === 'string' && (
          <p className="text-sm text-ink-soft">Role: {details.role}</p>
        )}
        <p className="truncate text-sm text-ink-soft">by {entry.actorEmail}</p>
      </div>
    </li>
  );
}
