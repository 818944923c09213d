/// <reference types="vite/client" />

import textFont from '@fontsource-variable/manrope/files/manrope-latin-wght-normal.woff2?url';
import {
  createRootRouteWithContext,
  HeadContent,
  Outlet,
  Scripts,
  useRouter,
  useRouterState,
} from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { CartProvider } from '#app/cart-store.tsx';
import { ChatPanel, ChatProvider } from '#app/components/chat/Chat.tsx';
import { ErrorScreen } from '#app/components/ErrorScreen.tsx';
import { Footer } from '#app/components/Footer.tsx';
import { Header } from '#app/components/Header.tsx';
import { OfflineNotice } from '#app/components/OfflineNotice.tsx';
import serviceWorker from '#app/service-worker.ts?worker&url';
import { type ShopContext, withSession } from '#app/session.ts';
import { APPEARANCE_BOOT_SCRIPT } from '#app/settings-store.ts';
import appCss from '#app/styles.css?url';
import { Toaster } from '#app/toast.tsx';
import { kampalaYear } from '#core/kampala-time.ts';

/** The same file, type and CORS mode as the stylesheet's @font-face (fonts are fetched anonymously). */
const TEXT_FONT_PRELOAD = {
  rel: 'preload',
  href: textFont,
  as: 'font',
  type: 'font/woff2',
  crossOrigin: 'anonymous',
} as const;

export const Route = createRootRouteWithContext<ShopContext>()({
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { title: 'duuka — premium fashion, Kampala' },
      {
        name: 'description',
        content:
          'duuka is a premium fashion house in Kampala: dresses, tailoring, shoes, bags and jewellery, priced in UGX and delivered across Uganda.',
      },
      { name: 'theme-color', content: '#faf7f2' },
    ],
    links: [
      { rel: 'stylesheet', href: appCss },
      // The text face (Latin), fetched with the stylesheet: paragraphs laid out in the fallback
      // face moved when it arrived (a layout shift Lighthouse counted on /orders). The display
      // face is left to load on its own: preloading it too delayed the hero image (LCP).
      // Production only: under `npm start` the head's preload was fetched again after hydration
      // and that copy never used, so Chromium warned "preloaded … but not used" on every page
      // (issue 32); the production build fetches it once and the stylesheet's @font-face uses it.
      ...(import.meta.env.PROD ? [TEXT_FONT_PRELOAD] : []),
      { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
      { rel: 'apple-touch-icon', href: '/apple-touch-icon.png', sizes: '180x180' },
      { rel: 'manifest', href: '/site.webmanifest' },
    ],
  }),
  // The session for the header and side menu, read from the cookie during SSR (accounts), a
  // signed-in shopper's cart for the header's count, the header's categories and the footer's
  // social pages.
  loader: async ({ context }) => {
    await Promise.all([
      withSession(context, () => [
        context.queryClient.prefetchQuery(context.trpc.cart.get.queryOptions()),
      ]),
      // The footer's social pages (configuration: the same on every page).
      context.queryClient.ensureQueryData(context.trpc.contact.channels.queryOptions()),
      // The header's categories, in the first render: no call for them after hydration.
      context.queryClient.ensureQueryData(context.trpc.catalogue.categories.queryOptions()),
    ]).catch(() => null);
    // The footer's year, read once where the page is made and sent with it: the browser's first
    // render shows the same. Read in the browser, it was the visitor's own zone and clock, a year
    // ahead of the server's from 21:00 UTC on 31 December in Kampala (a hydration mismatch).
    return { year: kampalaYear() };
  },
  shellComponent: Shell,
  component: Layout,
  errorComponent: ErrorScreen,
});

function Layout() {
  // Marks the page interactive (browser tests wait for it before they click).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  // The service worker (decision 0090), once the page has loaded, has painted and is idle: never
  // in the first paint's way (started at `load`, before a slow phone's first paint, it held that
  // paint back by a second). Its address changes with each deploy, so checks for a new one may
  // use the HTTP cache. The shop works without it (an old browser, a failed download).
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const register = () =>
      navigator.serviceWorker
        .register(serviceWorker, { scope: '/', updateViaCache: 'all' })
        .catch(() => null);
    const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    // Two frames: the first has been painted; then the first idle moment.
    const afterPaint = () =>
      requestAnimationFrame(() => requestAnimationFrame(() => whenIdle(() => void register())));
    if (document.readyState === 'complete') afterPaint();
    else addEventListener('load', afterPaint, { once: true });
  }, []);
  // The desk is the shop's own staff at work: it has no shoppers' assistant, no cart or search,
  // no footer or newsletter, only a slim bar with the logo and the way back to the shop. Known
  // from the address itself (the router's state, on the server render as in the browser): no
  // request asks whether this is the desk. /operator redirects to /desk.
  const atDesk = useRouterState({
    select: (state) => isDeskPath(state.location.pathname),
  });
  const { year } = Route.useLoaderData();
  return (
    <CartProvider>
      <ChatProvider>
        {/* The desk draws its own slim header (app/routes/desk.tsx): none of it in the shop's JS. */}
        {!atDesk && <Header chat />}
        <OfflineNotice />
        <main id="main" className={atDesk ? 'min-h-svh pt-14' : 'min-h-[70vh] pt-16'}>
          <Outlet />
        </main>
        {!atDesk && <Footer year={year} />}
        {!atDesk && <ChatPanel />}
        {/* Below the fixed header (4rem), so a toast never covers the cart or profile links. */}
        <Toaster
          position="top-right"
          duration={3000}
          offset={{ top: 80, right: 24 }}
          mobileOffset={{ top: 72, right: 16, left: 16 }}
        />
      </ChatProvider>
    </CartProvider>
  );
}

/** /desk and every page under it (not /desktop-something). */
function isDeskPath(pathname: string): boolean {
  return pathname === '/desk' || pathname.startsWith('/desk/');
}

function Shell({ children }: { children: ReactNode }) {
  const { options } = useRouter();
  const nonce = options.ssr?.nonce;
  const lessData = options.context.lessData ?? undefined;
  return (
    // The boot script may set data-theme from the shopper's cached settings (accounts). `lang` is
    // the language of the text: English, whatever language a shopper has chosen for later.
    // data-less-data: why the server made the page light, read back to hydrate (app/light-page.ts).
    <html lang="en" data-less-data={lessData} suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, no user input. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: APPEARANCE_BOOT_SCRIPT }} />
        <HeadContent />
      </head>
      <body>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:bg-paper focus:p-3"
        >
          Skip to content
        </a>
        {children}
        <Scripts />
      </body>
    </html>
  );
}
