// The boutique's desk (/desk, issue 22; /operator redirects): for the shop's staff and owner. A signed-out visitor
// goes to /login; a customer reads the server's refusal. Each section is a route under
// app/routes/desk/.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { Loading } from '#app/components/account/ui.tsx';
import { DeskHeader, DeskNav, DeskNotLoaded } from '#app/components/desk/DeskLayout.tsx';
import { privatePageHead } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';

export const Route = createFileRoute('/desk')({
  head: privatePageHead('Desk'),
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient
      .ensureQueryData(context.trpc.account.session.queryOptions())
      .catch(() => null);
    if (!user) throw redirect({ to: '/login' });
  },
  component: Desk,
});

function Desk() {
  const trpc = useTRPC();
  const role = useQuery(trpc.desk.role.queryOptions());
  if (role.isPending) {
    return (
      <>
        <DeskHeader />
        <Loading text="Loading the desk..." />
      </>
    );
  }
  if (role.isError) {
    return (
      <>
        <DeskHeader />
        <DeskNotLoaded error={role.error} />
      </>
    );
  }
  // On a phone the page ends above the bottom bar (its height and the safe area), so nothing
  // hides behind it.
  return (
    <div className="pb-[calc(4.5rem+env(safe-area-inset-bottom))] md:pb-0">
      <DeskHeader />
      <DeskNav role={role.data.role} whatsapp={role.data.whatsapp} />
      <Outlet />
    </div>
  );
}
