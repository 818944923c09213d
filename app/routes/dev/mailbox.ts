import { createFileRoute } from '@tanstack/react-router';

// Development only: `import.meta.env.DEV` is false in production builds, so the branch that
// reads the outbox is removed from them and the page answers 404 there.
export const Route = createFileRoute('/dev/mailbox')({
  server: {
    handlers: {
      GET: async () => {
        if (!import.meta.env.DEV) return new Response('Not found', { status: 404 });
        const [{ renderMailbox }, { workerDb }] = await Promise.all([
          import('#server/services/mailbox.ts'),
          import('#server/worker-context.ts'),
        ]);
        return renderMailbox(workerDb());
      },
    },
  },
});
