// A product's status as the desk shows it: a draft only the desk sees, on sale, or archived.
import type { ProductStatus } from '#core/desk-roles.ts';

const NAMES: Record<ProductStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};

export const statusName = (status: ProductStatus) => NAMES[status];

// The order badge's fills (components/orders/StatusBadge.tsx): each label above 7:1 on its fill,
// in the light and the dark theme.
const TONES: Record<ProductStatus, string> = {
  draft:
    'bg-[light-dark(#f8ecc4,#3a2e10)] text-[light-dark(#5c4200,#f3d27a)] border-[light-dark(#e6cf86,#6b5320)]',
  published:
    'bg-[light-dark(#e0efe1,#15301b)] text-[light-dark(#1d5128,#a3dcad)] border-[light-dark(#b5d6b9,#2f5a37)]',
  archived:
    'bg-[light-dark(#ece7df,#2a2722)] text-[light-dark(#433d35,#d8d0c3)] border-[light-dark(#d6cdbf,#4a443b)]',
};

export function ProductStatusBadge({ status }: { status: ProductStatus }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide ${TONES[status]}`}
    >
      <span aria-hidden className="size-1.5 rounded-full bg-current" />
      {NAMES[status]}
    </span>
  );
}
