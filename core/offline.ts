// What a shopper reads when her phone is offline (decision 0090): on the service worker's offline
// page (app/service-worker.ts), and on a page open when the network went (OfflineNotice.tsx).
export const OFFLINE_TEXT = {
  title: 'You’re offline',
  prices: 'Prices and stock show when you’re back online.',
  cart: 'Your cart is kept.',
  retry: 'Try again',
} as const;
