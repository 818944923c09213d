// The desk's frame (issue 22; on a phone, issue 34): its sections and each page's heading. On a
// phone a bar fixed at the bottom holds the daily places (Today, Orders, the WhatsApp inbox where
// WhatsApp is set up, Products, and More, which opens the rest); from a tablet up, one row of
// every section under the header, never wrapping. The owner's sections (staff, the record) show
// to the owner only; the server refuses them to staff whatever the page shows. Decision 0079.
import { Link, useRouterState } from '@tanstack/react-router';
import {
  type LucideIcon,
  MessageCircle,
  MoreHorizontal,
  ReceiptText,
  Shirt,
  Sun,
  X,
} from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { errorMessage } from '#app/error-message.ts';
import type { DeskRole } from '#core/desk-roles.ts';

/**
 * A section of the desk. `daily`: one of the phone bar's places (with its icon); every other
 * section is under More on a phone.
 */
type Section = {
  to: string;
  label: string;
  exact?: boolean;
  ownerOnly?: boolean;
  daily?: LucideIcon;
  /** Shown only where the shop has it set up (desk.role's `whatsapp`). */
  needs?: 'whatsapp';
};

/** The ONE list the desk's navigation is built from, on a phone and on a desktop. */
export const DESK_SECTIONS: readonly Section[] = [
  { to: '/desk', label: 'Today', exact: true, daily: Sun },
  { to: '/desk/orders', label: 'Orders', daily: ReceiptText },
  { to: '/desk/inbox', label: 'Inbox', daily: MessageCircle, needs: 'whatsapp' },
  { to: '/desk/returns', label: 'Returns' },
  { to: '/desk/customers', label: 'Customers' },
  { to: '/desk/products', label: 'Products', daily: Shirt },
  { to: '/desk/stock', label: 'Stock' },
  { to: '/desk/spreadsheet', label: 'Spreadsheet' },
  { to: '/desk/delivery', label: 'Delivery' },
  { to: '/desk/offers', label: 'Offers' },
  { to: '/desk/campaigns', label: 'Campaigns' },
  { to: '/desk/credit', label: 'Gift cards' },
  { to: '/desk/home', label: 'Home page' },
  { to: '/desk/settings', label: 'Settings' },
  { to: '/desk/staff', label: 'Staff', ownerOnly: true },
  { to: '/desk/record', label: 'Record', ownerOnly: true },
  { to: '/desk/details', label: 'Shop details', ownerOnly: true },
];

/** Whether `pathname` is in `section` (Today only on /desk itself). */
function isIn(section: Section, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return section.exact
    ? path === section.to
    : path === section.to || path.startsWith(`${section.to}/`);
}

export function DeskNav({ role, whatsapp }: { role: DeskRole; whatsapp: boolean }) {
  const sections = DESK_SECTIONS.filter(
    (s) => (!s.ownerOnly || role === 'owner') && (s.needs !== 'whatsapp' || whatsapp),
  );
  return (
    <>
      <DeskTopBar sections={sections} />
      <DeskBottomBar sections={sections} />
    </>
  );
}

/**
 * From a tablet up: every section in one row (scrolled sideways on a narrow tablet, never wrapped).
 * At 1366 px all of them fit without scrolling (tests/e2e/desk-phone.test.ts): with the inbox,
 * 17 labels fill ~1,250 of the row's 1,280 px, so a new section needs room made for it.
 */
function DeskTopBar({ sections }: { sections: readonly Section[] }) {
  return (
    <nav
      aria-label="Desk"
      data-testid="desk-top-bar"
      className="hidden border-b border-line bg-paper md:block"
    >
      <ul className="mx-auto flex max-w-7xl flex-nowrap gap-x-1 overflow-x-auto px-4 [scrollbar-width:none] sm:px-6">
        {sections.map((section) => (
          <li key={section.to} className="shrink-0">
            <Link
              to={section.to}
              activeOptions={{ exact: section.exact ?? false }}
              className="inline-flex min-h-12 items-center whitespace-nowrap border-b-2 border-transparent px-1.5 text-sm font-medium text-ink-soft hover:text-ink aria-[current=page]:border-ink aria-[current=page]:text-ink"
            >
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const PLACE =
  'flex min-h-14 flex-col items-center justify-center gap-0.5 px-1 text-[0.7rem] font-medium tracking-wide text-ink-soft aria-[current=page]:text-ink';

/** On a phone: the daily places fixed at the bottom, within the thumb's reach. */
function DeskBottomBar({ sections }: { sections: readonly Section[] }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [moreOpen, setMoreOpen] = useState(false);
  const daily = sections.filter((s) => s.daily);
  const rest = sections.filter((s) => !s.daily);
  const inRest = rest.some((s) => isIn(s, pathname));
  // A place chosen in the sheet closes it (also when the address changes some other way).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every move.
  useEffect(() => setMoreOpen(false), [pathname]);
  return (
    <>
      <nav
        aria-label="Desk"
        data-testid="desk-bottom-bar"
        className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-paper/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
      >
        <ul className={daily.length > 3 ? 'grid grid-cols-5' : 'grid grid-cols-4'}>
          {daily.map((section) => {
            const Icon = section.daily as LucideIcon;
            return (
              <li key={section.to}>
                <Link
                  to={section.to}
                  activeOptions={{ exact: section.exact ?? false }}
                  className={PLACE}
                >
                  {({ isActive }) => (
                    <>
                      <Icon aria-hidden className="size-5" strokeWidth={isActive ? 2.25 : 1.75} />
                      <span>{section.label}</span>
                      <Mark on={isActive} />
                    </>
                  )}
                </Link>
              </li>
            );
          })}
          <li>
            <button
              type="button"
              className={`${PLACE} w-full`}
              aria-current={inRest ? 'page' : undefined}
              aria-expanded={moreOpen}
              aria-controls="desk-more"
              onClick={() => setMoreOpen((open) => !open)}
            >
              <MoreHorizontal aria-hidden className="size-5" strokeWidth={inRest ? 2.25 : 1.75} />
              <span>More</span>
              <Mark on={inRest} />
            </button>
          </li>
        </ul>
      </nav>
      {moreOpen && (
        <MoreSheet sections={rest} pathname={pathname} onClose={() => setMoreOpen(false)} />
      )}
    </>
  );
}

/** The line under the current place. */
function Mark({ on }: { on: boolean }) {
  return <span aria-hidden className={`mt-0.5 h-0.5 w-5 ${on ? 'bg-ink' : 'bg-transparent'}`} />;
}

/** The rest of the desk, in a sheet over the bottom bar. */
function MoreSheet({
  sections,
  pathname,
  onClose,
}: {
  sections: readonly Section[];
  pathname: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-50 md:hidden">
      <button
        type="button"
        aria-label="Close"
        tabIndex={-1}
        className="absolute inset-0 bg-black/40"
        onClick={onClose}
      />
      <div
        ref={panel}
        id="desk-more"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="absolute inset-x-0 bottom-0 max-h-[80vh] overflow-y-auto border-t border-line bg-paper pb-[env(safe-area-inset-bottom)] shadow-2xl"
      >
        <div className="flex items-center justify-between border-b border-line px-5 py-2">
          <h2 id={titleId} className="eyebrow">
            More of the desk
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close more"
            className="-mr-2 grid size-11 place-items-center text-ink-soft hover:text-ink"
          >
            <X aria-hidden className="size-5" />
          </button>
        </div>
        <ul className="divide-y divide-line">
          {sections.map((section) => (
            <li key={section.to}>
              <Link
                to={section.to}
                onClick={onClose}
                aria-current={isIn(section, pathname) ? 'page' : undefined}
                className="flex min-h-13 items-center justify-between px-5 text-base hover:bg-paper-2 aria-[current=page]:font-semibold"
              >
                {section.label}
                {isIn(section, pathname) && (
                  <span className="size-1.5 rounded-full bg-ink" aria-hidden />
                )}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/**
 * A desk page: its eyebrow and title, an optional action beside them, then its content.
 * `headingOnPhone: false`: below a desktop's width the heading is read by screen readers only (a
 * WhatsApp thread on a phone, whose own header names it).
 */
export function DeskPage({
  eyebrow = 'Desk',
  title,
  action,
  headingOnPhone = true,
  children,
}: {
  eyebrow?: string;
  title: string;
  action?: ReactNode;
  headingOnPhone?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6 md:py-12">
      <header
        className={`flex flex-wrap items-end justify-between gap-4 border-b border-line pb-6 ${headingOnPhone ? '' : 'max-lg:sr-only'}`}
      >
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

/**
 * The desk's own header (issue 34): slim, the logo and the way back to the shop, nothing a shopper
 * needs (cart, search, the assistant). The desk's sections are its own navigation.
 */
export function DeskHeader() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line bg-paper/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link to="/desk" className="flex items-baseline gap-2">
          <span className="font-display text-2xl font-semibold tracking-wide">duuka</span>
          <span className="eyebrow">Desk</span>
        </Link>
        <Link
          to="/"
          className="-mr-2 inline-flex min-h-11 items-center gap-1.5 px-2 text-sm font-medium text-ink-soft hover:text-ink"
        >
          <span aria-hidden>←</span>
          Back to the shop
        </Link>
      </div>
    </header>
  );
}
