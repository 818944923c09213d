import { useMutation } from '@tanstack/react-query';
import { Link, useHydrated } from '@tanstack/react-router';
import { ArrowUp, Clock, Mail, MapPin, Phone } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import * as v from 'valibot';
import { errorMessage, UNEXPECTED } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { EMAIL_MAX, newsletterInput, TEXT } from '#core/contact-rules.ts';
import { LEGAL_PAGES } from '#core/legal-pages.ts';
import { SocialLinkList, useSocialLinks, useStoreDetails, useSupportLinks } from './SocialIcons';

const QUICK_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/shop', label: 'Shop' },
  { to: '/gift-cards', label: 'Gift cards' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;

/** `year`: the root loader's, read in Kampala where the page was made (the same in hydration). */
export function Footer({ year }: { year: number }) {
  const support = useSupportLinks();
  const store = useStoreDetails();
  return (
    <footer className="band mt-24 text-paper [color-scheme:light]">
      <Newsletter />
      <div className="mx-auto grid max-w-7xl gap-12 px-5 py-14 sm:grid-cols-2 sm:px-6 lg:grid-cols-[1.4fr_1fr_1.2fr_1fr]">
        <div>
          <p className="font-display text-4xl font-semibold tracking-wide">duuka</p>
          <p className="mt-3 max-w-xs text-sm leading-relaxed text-paper/70">
            Premium fashion from Kampala — kitenge tailoring, soft leather and hand-finished
            jewellery, priced in UGX and delivered across Uganda.
          </p>
          <Social />
        </div>

        <nav aria-labelledby="footer-explore">
          <FooterHeading id="footer-explore">Explore</FooterHeading>
          <ul className="mt-5 space-y-3 text-sm">
            {QUICK_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="text-paper/80 underline-offset-4 transition-colors hover:text-paper hover:underline"
                  activeOptions={{ exact: true }}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <FooterHeading id="footer-visit">Visit &amp; reach us</FooterHeading>
          <address className="mt-5 space-y-3 text-sm not-italic text-paper/80">
            <p className="flex items-start gap-3">
              <MapPin aria-hidden className="mt-0.5 size-4 shrink-0 text-paper/60" />
              <span data-testid="footer-address">{store?.address ?? 'Kampala, Uganda'}</span>
            </p>
            <p className="flex items-start gap-3">
              <Phone aria-hidden className="mt-0.5 size-4 shrink-0 text-paper/60" />
              <a
                href={support.phoneHref}
                className="underline-offset-4 hover:text-paper hover:underline"
              >
                {support.phone}
              </a>
            </p>
            <p className="flex items-start gap-3">
              <Mail aria-hidden className="mt-0.5 size-4 shrink-0 text-paper/60" />
              <a
                href={support.emailHref}
                className="underline-offset-4 hover:text-paper hover:underline"
              >
                {support.email}
              </a>
            </p>
          </address>
        </div>

        <div>
          <FooterHeading id="footer-hours">Opening hours</FooterHeading>
          <dl className="mt-5 space-y-3 text-sm text-paper/80" data-testid="footer-hours">
            {store?.lines.map((slot) => (
              <div key={slot.days} className="flex items-start gap-3">
                <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-paper/60" />
                <dt className="w-16 shrink-0">{slot.days}</dt>
                <dd>{slot.time}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>

      <div className="border-t border-paper/15">
        <div className="mx-auto flex max-w-7xl flex-col gap-5 px-5 py-6 text-xs text-paper/70 sm:px-6 md:flex-row md:items-center md:justify-between">
          <p>© {year} duuka. All rights reserved.</p>
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-x-6 gap-y-1">
              {LEGAL_PAGES.map((page) => (
                <li key={page.path}>
                  <Link
                    to={page.path}
                    className="inline-flex min-h-11 items-center text-paper/80 underline-offset-4 transition-colors hover:text-paper hover:underline"
                  >
                    {page.title}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <BackToTop />
        </div>
      </div>
    </footer>
  );
}

function FooterHeading({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="text-[0.72rem] font-semibold uppercase tracking-[0.22em] text-paper/60">
      {children}
    </h2>
  );
}

function Newsletter() {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const inputId = useId();
  const statusId = useId();
  const subscribe = useMutation(trpc.contact.subscribe.mutationOptions());
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const email = String(new FormData(form).get('email') ?? '');
    setStatus(null);
    const refused = (text: string) => {
      setStatus({ tone: 'error', text });
      toast.error(text);
    };
    // The server's own rule, checked before sending: the same schema, the same message.
    const checked = v.safeParse(newsletterInput, { email });
    if (!checked.success) return refused(checked.issues[0].message);
    subscribe.mutate(
      { email },
      {
        onSuccess: (result) => {
          const text = result.isNew
            ? TEXT.subscribed(result.email)
            : TEXT.alreadySubscribed(result.email);
          setStatus({ tone: 'ok', text });
          toast.success(result.isNew ? TEXT.subscribedToast : TEXT.alreadySubscribedToast);
          form.reset();
        },
        onError: (error) => refused(errorMessage(error, UNEXPECTED)),
      },
    );
  }

  return (
    <section aria-labelledby="newsletter-heading" className="border-b border-paper/15">
      <div className="mx-auto grid max-w-7xl gap-8 px-5 py-14 sm:px-6 lg:grid-cols-2 lg:items-end lg:gap-16">
        <div>
          <p className="text-[0.72rem] font-semibold uppercase tracking-[0.22em] text-paper/60">
            The duuka letter
          </p>
          <h2
            id="newsletter-heading"
            className="mt-3 font-display text-4xl leading-tight font-medium sm:text-5xl"
          >
            New arrivals, first.
          </h2>
          <p className="mt-3 max-w-md text-sm leading-relaxed text-paper/70">
            One short letter a month: new pieces, private previews and stories from our Kampala
            workshop. No noise — leave whenever you like.
          </p>
        </div>
        <form onSubmit={onSubmit} aria-describedby={statusId} className="w-full">
          <label htmlFor={inputId} className="text-sm text-paper/80">
            Email address
          </label>
          <div className="mt-2 flex flex-col gap-3 sm:flex-row">
            <input
              id={inputId}
              name="email"
              type="email"
              required
              maxLength={EMAIL_MAX}
              autoComplete="email"
              inputMode="email"
              placeholder="you@example.com"
              className="min-h-12 w-full min-w-0 flex-1 border border-paper/30 bg-transparent px-4 text-base text-paper placeholder:text-paper/50 focus:border-paper focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-paper"
            />
            <button
              type="submit"
              disabled={!hydrated || subscribe.isPending}
              className="btn min-h-12 shrink-0 bg-paper text-ink hover:bg-accent hover:text-accent-ink"
            >
              {subscribe.isPending ? TEXT.subscribing : 'Subscribe'}
            </button>
          </div>
          <p
            id={statusId}
            role="status"
            className="mt-3 flex min-h-5 items-start gap-2 text-sm text-paper/85"
          >
            {status && (
              <span
                aria-hidden
                className={`mt-1.5 size-2 shrink-0 rounded-full ${status.tone === 'error' ? 'bg-[#e5674f]' : 'bg-[#7fbf8a]'}`}
              />
            )}
            {status?.text}
          </p>
        </form>
      </div>
    </section>
  );
}

function Social() {
  const links = useSocialLinks();
  if (links.length === 0) return null;
  return (
    <div className="mt-8">
      <p className="text-[0.72rem] font-semibold uppercase tracking-[0.22em] text-paper/60">
        Follow duuka
      </p>
      <SocialLinkList
        links={links}
        linkClassName="grid size-10 place-items-center rounded-full border border-paper/25 text-paper/80 hover:border-paper hover:text-paper"
      />
    </div>
  );
}

function BackToTop() {
  function toTop() {
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
    // Move keyboard focus to the top of the page too, without showing a ring around it.
    const body = document.body;
    body.setAttribute('tabindex', '-1');
    body.style.outline = 'none';
    body.focus({ preventScroll: true });
    body.addEventListener(
      'blur',
      () => {
        body.removeAttribute('tabindex');
        body.style.removeProperty('outline');
      },
      { once: true },
    );
  }
  return (
    <button
      type="button"
      onClick={toTop}
      className="inline-flex min-h-11 items-center gap-2 self-start font-semibold uppercase tracking-[0.18em] text-paper/80 transition-colors hover:text-paper md:self-auto"
    >
      Back to top
      <ArrowUp aria-hidden className="size-4" />
    </button>
  );
}
