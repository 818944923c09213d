// What the shop answers to a write it will not run: one sent by another site's page, or in a
// form other than the one the shop's own pages send (server/http/own-origin.ts, decision 0038).

export const REQUEST_TEXT = {
  otherSite: 'This request came from another site.',
  notJson: 'Send this request as JSON (content-type application/json).',
} as const;

/** Calls one HTTP request may carry: the server refuses larger batches, the browser splits them. */
export const MAX_CALLS_PER_BATCH = 20;
