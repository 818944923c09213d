// The Worker's entry: TanStack Start serves pages, /api/trpc and /api/auth; queue and cron
// handlers join here as the areas that need them arrive.
import handler from '@tanstack/react-start/server-entry';

export default {
  fetch(request) {
    return handler.fetch(request);
  },
} satisfies ExportedHandler<Env>;
