// The desk's frame (issue 22): its sections as tabs, on two lines on a phone, and each
// page's heading. The owner's sections (staff, the record) show to the owner only; the server
// refuses them to staff whatever the page shows.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { errorMessage } from '#app/error-message.ts';
import type { DeskRole } from '#core/desk-roles.ts';

type Section = { to: string; label: string; exact?: boolean; ownerOnly?: boolean };

export const DESK_SECTIONS: readonly Section[] = [
  { to: '/desk', label: 'Today', exact: true },
  { to: '/desk/orders', label: 'Orders' },
  { to: '/desk/customers', label: 'Customers' },
  { to: '/desk/products', label: 'Products' },
  { to: '/desk/stock', label: 'Stock' },
  { to: '/desk/spreadsheet', label: 'Spreadsheet' },
  { to: '/desk/delivery', label: 'Delivery' },
  { to: '/desk/home', label: 'Home page' },
  { to: '/desk/settings', label: 'Settings' },
  { to: '/desk/staff', label: 'Staff', ownerOnly: true },
  { to: '/desk/record', label: 'Record', ownerOnly: true },
  { to: '/desk/details', label: 'Shop details', ownerOnly: true },
];

export function DeskNav({ role }: { role: DeskRole }) {
  return (
    <nav aria-label="Desk" className="border-b border-line bg-paper">
      {/* The sections wrap onto a second line on a phone: every one in sight, none cut off. */}
      <ul className="mx-auto flex max-w-7xl flex-wrap gap-x-1 px-2 sm:px-4">
        {DESK_SECTIONS.filter((s) => !s.ownerOnly || role === 'owner').map((section) => (
          <li key={section.to} className="shrink-0">
            <Link
              to={section.to}
              activeOptions={{ exact: section.exact ?? false }}
              className="inline-flex min-h-11 items-center border-b-2 border-transparent px-2.5 text-sm sm:px-3 font-medium text-ink-soft hover:text-ink aria-[current=page]:border-ink aria-[current=page]:text-ink"
            >
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A desk page: its eyebrow and title, an optional action beside them, then its content. */
export function DeskPage({
  eyebrow = 'Desk',
  title,
  action,
  children,
}: {
  eyebrow?: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6 md:py-12">
      <header className="flex flex-wrap items-end justify-between gap-4 border-b border-line pb-6">
        <div>
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="mt-2 font-display text-4xl sm:text-5xl">{title}</h1>
        </div>
        {action}
      </header>
      {children}
    </section>
  );
}

/**
 * A desk page that could not be drawn (its read failed, or the address names nothing): its
 * title, then why. `className` spaces the notice as the page's own content would start.
 */
export function DeskPageProblem({
  title,
  className = 'mt-8',
  children,
}: {
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <DeskPage title={title}>
      <div className={className}>
        <Notice tone="error">{children}</Notice>
      </div>
    </DeskPage>
  );
}

/** The desk itself could not be read (who is asking, or the orders): no desk page to frame it. */
export function DeskNotLoaded({ error }: { error: unknown }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-20">
      <Notice tone="error">{errorMessage(error, 'The desk could not be loaded.')}</Notice>
    </section>
  );
}
