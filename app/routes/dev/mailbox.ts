import { createFileRoute } from '@tanstack/react-router';
import { escapeHtml } from '#core/html.ts';
import type { OutboxMail } from '#server/services/mailbox-service.ts';

// Development only: `import.meta.env.DEV` is false in production builds, so the branch that
// reads the outbox is removed from them and the page answers 404 there.
export const Route = createFileRoute('/dev/mailbox')({
  server: {
    handlers: {
      GET: async () => {
        if (!import.meta.env.DEV) return new Response('Not found', { status: 404 });
        const [{ recentMails }, { workerDb }] = await Promise.all([
          import('#server/services/mailbox-service.ts'),
          import('#server/worker-context.ts'),
        ]);
        return new Response(mailboxPage(await recentMails(workerDb())), {
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        });
      },
    },
  },
});

/** The mails the shop would have sent, with their links, as one plain page. */
function mailboxPage(mails: OutboxMail[]): string {
  const rows = mails
    .map(
      (m) => `<article>
  <p class="meta">${escapeHtml(m.createdAt.toISOString().replace('T', ' ').slice(0, 19))} UTC · to <b>${escapeHtml(m.recipient)}</b></p>
  <h2>${escapeHtml(m.subject)}</h2>
  ${m.link ? `<p><a href="${escapeHtml(m.link)}">${escapeHtml(m.link)}</a></p>` : ''}
  <details><summary>Text</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Mailbox (development) · duuka</title>
<style>body{font-family:system-ui,sans-serif;background:#faf7f2;color:#1d1a16;max-width:760px;margin:2rem auto;padding:0 1rem}
article{border:1px solid #e3dacb;background:#fff;padding:1rem 1.25rem;margin:1rem 0}h1{font-family:Georgia,serif;font-weight:500}
h2{font-size:1.05rem;margin:.25rem 0}.meta{color:#5b534a;font-size:.85rem;margin:0}a{color:#8f3f22;word-break:break-all}</style></head>
<body><h1>Mailbox <small>(development only)</small></h1>
<p>Mails the shop would have sent, newest first. Open a verification link to verify an account by hand.</p>
${rows || '<p>No mails yet.</p>'}</body></html>`;
}
