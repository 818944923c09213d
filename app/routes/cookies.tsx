import { createFileRoute } from '@tanstack/react-router';
import { LegalPage, type LegalSection, TextLink } from '#app/components/legal/LegalPage.tsx';
import { pageHead } from '#app/seo.ts';
import { BROWSER_ITEMS, type BrowserItem, INERT_SETTINGS, SESSION_COOKIE } from '#core/legal.ts';

export const Route = createFileRoute('/cookies')({
  head: () =>
    pageHead({
      title: 'Cookie Policy',
      description:
        'Every cookie and browser-storage key duuka uses — the sign-in cookie, your settings and your cart — what each is for and how long it stays. No advertising or tracking cookies.',
      path: '/cookies',
    }),
  component: Cookies,
});

function Items({ items }: { items: readonly BrowserItem[] }) {
  return (
    <ul className="mt-6 divide-y divide-line border-t border-line">
      {items.map((item) => (
        <li key={item.name} className="py-6 last:pb-0">
          <p className="eyebrow">{item.kind}</p>
          <h3 className="mt-1 font-mono text-base font-semibold break-all text-ink">{item.name}</h3>
          <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[7rem_1fr]">
            <dt className="text-[0.72rem] font-semibold uppercase tracking-[0.18em] text-ink sm:pt-0.5">
              What for
            </dt>
            <dd className="mb-3 sm:mb-0">
              {item.purpose}
              {item.secureName && (
                <>
                  {' '}
                  On a secure (https) connection it is called{' '}
                  <code className="break-all text-ink">{item.secureName}</code>.
                </>
              )}
            </dd>
            <dt className="text-[0.72rem] font-semibold uppercase tracking-[0.18em] text-ink sm:pt-0.5">
              How long
            </dt>
            <dd>{item.lifetime}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

function Cookies() {
  const cookies = BROWSER_ITEMS.filter((item) => item.kind === 'Cookie');
  const storage = BROWSER_ITEMS.filter((item) => item.kind !== 'Cookie');
  const sections: LegalSection[] = [
    {
      id: 'in-short',
      title: 'In short',
      body: (
        <>
          <p>
            duuka uses only what the shop needs to work: a cookie that keeps you signed in, one that
            remembers “Use less data” if you turn it on, and a few entries in your browser’s storage
            for your settings, your cart and your checkout.
          </p>
          <p>
            There are no advertising, analytics or third-party tracking cookies, and no other
            company’s scripts run on our pages: the shop’s security policy lets the browser load
            scripts from duuka alone. Each entry below is needed for the shop to work, and none is
            used to follow you anywhere else.
          </p>
        </>
      ),
    },
    {
      id: 'cookies',
      title: 'Cookies',
      body: (
        <>
          <p>
            Both are set by our sign-in system, only when you sign in, and for this website alone.
          </p>
          <Items items={cookies} />
        </>
      ),
    },
    {
      id: 'storage',
      title: 'Your browser’s storage',
      body: (
        <>
          <p>
            Local storage stays in this browser until it is removed; session storage lasts until you
            close the tab. Neither is sent to us with each visit the way a cookie is.
          </p>
          <Items items={storage} />
        </>
      ),
    },
    {
      id: 'settings-switches',
      title: 'The “Analytics” and “Data sharing” switches',
      body: (
        <p>
          Your Settings page has switches called {INERT_SETTINGS.map((s) => `“${s}”`).join(' and ')}
          . They save your choice with your account, but today there is nothing behind them: the
          shop runs no analytics and shares no shopping data with partners, whichever way they are
          set. If that ever changes, this page will say so first.
        </p>
      ),
    },
    {
      id: 'control',
      title: 'Removing them',
      body: (
        <>
          <p>
            Signing out removes <code className="text-[0.92em] text-ink">{SESSION_COOKIE}</code>.
            Deleting your account removes your settings and cart from the browser you delete it
            from. You can also clear cookies and site data for duuka in your browser’s settings at
            any time.
          </p>
          <p>
            If you block cookies, you can still browse and fill a cart, but you cannot sign in or
            check out. What we keep on our side is described in the{' '}
            <TextLink to="/privacy">Privacy Policy</TextLink>.
          </p>
        </>
      ),
    },
  ];
  return (
    <LegalPage
      path="/cookies"
      title="Cookie Policy"
      lede="One cookie to keep you signed in, a little storage for your cart — and nothing that follows you."
      sections={sections}
    />
  );
}
