// The Terms of Service, Privacy Policy and Cookie Policy share one editorial frame: the title band
// (as on About), a contents list that stays in view on a wide screen, numbered sections in a
// readable measure, and the other two documents at the foot.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useSupportLinks } from '#app/components/SocialIcons.tsx';
import { LEGAL_PAGES, LEGAL_UPDATED } from '#core/legal-pages.ts';

export type LegalSection = { id: string; title: string; body: ReactNode };

export function LegalPage({
  path,
  title,
  lede,
  sections,
}: {
  path: (typeof LEGAL_PAGES)[number]['path'];
  title: string;
  lede: string;
  sections: LegalSection[];
}) {
  const others = LEGAL_PAGES.filter((page) => page.path !== path);
  return (
    <>
      <section aria-labelledby="legal-title" className="border-b border-line bg-paper-2">
        <div className="mx-auto max-w-7xl px-5 py-14 sm:px-6 md:py-20">
          <p className="eyebrow text-accent">duuka · Kampala</p>
          <h1
            id="legal-title"
            className="mt-4 font-display text-5xl leading-[0.95] font-medium sm:text-7xl"
          >
            {title}
          </h1>
          <p className="mt-6 max-w-2xl font-display text-2xl leading-snug text-ink-soft italic sm:text-3xl">
            {lede}
          </p>
          <p className="mt-8 text-sm text-ink-soft">
            Last updated <time dateTime="2026-11-26">{LEGAL_UPDATED}</time>
          </p>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-10 px-5 py-14 sm:px-6 md:py-20 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-20">
        <nav aria-labelledby="legal-contents" className="lg:sticky lg:top-28 lg:self-start">
          <h2
            id="legal-contents"
            className="text-[0.72rem] font-semibold uppercase tracking-[0.22em] text-ink-soft"
          >
            On this page
          </h2>
          <ol className="mt-4 grid gap-x-6 border-l border-line text-sm sm:grid-cols-2 lg:grid-cols-1">
            {sections.map((section, i) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="flex min-h-11 items-baseline gap-3 py-2.5 pl-4 leading-snug text-ink-soft underline-offset-4 hover:text-accent hover:underline"
                >
                  <span
                    aria-hidden
                    className="w-5 shrink-0 font-display text-base text-accent lining-nums tabular-nums"
                  >
                    {i + 1}
                  </span>
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <article className="min-w-0 max-w-[44rem]">
          {sections.map((section, i) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-title`}
              className="scroll-mt-28 border-t border-line py-10 first:border-t-0 first:pt-0"
            >
              <p aria-hidden className="font-display text-xl text-accent lining-nums tabular-nums">
                {String(i + 1).padStart(2, '0')}
              </p>
              <h2
                id={`${section.id}-title`}
                className="mt-1 font-display text-3xl leading-tight font-medium sm:text-4xl"
              >
                {section.title}
              </h2>
              <div className="mt-5 space-y-4 leading-relaxed text-ink-soft">{section.body}</div>
            </section>
          ))}
        </article>
      </div>

      <section aria-labelledby="legal-more" className="border-t border-line bg-paper-2">
        <div className="mx-auto max-w-7xl px-5 py-14 sm:px-6">
          <h2 id="legal-more" className="eyebrow text-accent">
            Also read
          </h2>
          <ul className="mt-5 grid gap-4 sm:grid-cols-2">
            {others.map((page) => (
              <li key={page.path}>
                <Link
                  to={page.path}
                  className="group flex min-h-16 items-center justify-between border border-line bg-paper px-6 py-4 font-display text-2xl transition-colors hover:border-accent hover:text-accent"
                >
                  {page.title}
                  <span
                    aria-hidden
                    className="text-accent transition-transform group-hover:translate-x-1"
                  >
                    →
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}

/** A short list in a section's text. */
export function Points({ items }: { items: readonly ReactNode[] }) {
  return (
    <ul className="space-y-2 pl-5 marker:text-accent [list-style:square]">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

/** An inline link in a section's text. */
export function TextLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-semibold text-accent underline underline-offset-4">
      {children}
    </Link>
  );
}

/** A label and its text, side by side from sm up (why / how long). */
export function Facts({ rows }: { rows: readonly { label: string; text: ReactNode }[] }) {
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[7rem_1fr]">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="text-[0.72rem] font-semibold uppercase tracking-[0.18em] text-ink sm:pt-0.5">
            {row.label}
          </dt>
          <dd className="mb-3 sm:mb-0">{row.text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The shop's email and phone as links (the footer's source: the desk's settings). */
export function ShopContact() {
  const support = useSupportLinks();
  return (
    <>
      <a
        href={support.emailHref}
        className="font-semibold text-accent underline underline-offset-4"
      >
        {support.email}
      </a>{' '}
      or{' '}
      <a
        href={support.phoneHref}
        className="font-semibold text-accent underline underline-offset-4"
      >
        {support.phone}
      </a>
    </>
  );
}
