// The three legal pages and their date: all the footer and sign-up need, apart from the pages'
// facts (core/legal.ts), so every page's first load carries only these few words.

/** The date on all three pages. */
export const LEGAL_UPDATED = '29 November 2026';

export const LEGAL_PAGES = [
  { path: '/terms', title: 'Terms of Service' },
  { path: '/privacy', title: 'Privacy Policy' },
  { path: '/cookies', title: 'Cookie Policy' },
] as const;
