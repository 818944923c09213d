import { type StatusTone, statusLabel, statusTone } from '#core/order-rules.ts';

// Pending yellow, completed green, cancelled red, anything else grey (spec: account §4). Each pair
// keeps the label above 7:1 against its fill, in the light and the dark theme.
const tones: Record<StatusTone, string> = {
  yellow:
    'bg-[light-dark(#f8ecc4,#3a2e10)] text-[light-dark(#5c4200,#f3d27a)] border-[light-dark(#e6cf86,#6b5320)]',
  green:
    'bg-[light-dark(#e0efe1,#15301b)] text-[light-dark(#1d5128,#a3dcad)] border-[light-dark(#b5d6b9,#2f5a37)]',
  red: 'bg-[light-dark(#f7e0dc,#3a1613)] text-[light-dark(#85180f,#ffb3a6)] border-[light-dark(#e8b8b0,#6a2a23)]',
  grey: 'bg-[light-dark(#ece7df,#2a2722)] text-[light-dark(#433d35,#d8d0c3)] border-[light-dark(#d6cdbf,#4a443b)]',
};

/** The order's status as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  return <ToneBadge tone={statusTone(status)} label={statusLabel(status)} />;
}

/** A status in one of the four tones (an order's, a return's). */
export function ToneBadge({ tone, label }: { tone: StatusTone; label: string }) {
  return (
    <span
      data-tone={tone}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide ${tones[tone]}`}
    >
      <span aria-hidden className="size-1.5 rounded-full bg-current" />
      {label}
    </span>
  );
}
