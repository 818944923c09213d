import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChevronDown, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { useStoreDetails } from './SocialIcons';

/** Spec §9: the menu slides in and out in about 300 ms. */
export const MENU_SLIDE_MS = 300;

type Entry = { label: string; to: string };
const always: Entry[] = [
  { label: 'Home', to: '/' },
  { label: 'Shop', to: '/shop' },
  { label: 'Cart', to: '/cart' },
  { label: 'Contact Us', to: '/contact' },
];
const signedIn: Entry[] = [
  { label: 'Profile', to: '/profile' },
  { label: 'Settings', to: '/settings' },
  { label: 'Orders', to: '/orders' },
  { label: 'Logout', to: '/logout' },
];
const signedOut: Entry[] = [
  { label: 'Login', to: '/login' },
  { label: 'Register', to: '/register' },
];

/** The side menu: a modal panel (Esc or the backdrop closes it) with entries by login state. */
export function SideMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useSession();
  const store = useStoreDetails();
  const panel = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = panel.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      const timer = setTimeout(() => dialog.close(), MENU_SLIDE_MS);
      return () => clearTimeout(timer);
    }
  }, [open]);

  const entries = [...always, ...(user ? signedIn : signedOut)];
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes the native dialog; the click is a backdrop convenience.
    <dialog
      ref={panel}
      id="side-menu"
      aria-label="Menu"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => event.target === panel.current && onClose()}
      data-open={open}
      className="m-0 h-dvh max-h-none w-full max-w-none bg-transparent p-0 backdrop:bg-transparent"
    >
      <div
        aria-hidden
        className={`fixed inset-0 bg-black/55 transition-opacity ${open ? 'opacity-100' : 'opacity-0'}`}
        style={{ transitionDuration: `${MENU_SLIDE_MS}ms` }}
        onClick={onClose}
      />
      <nav
        aria-label="Menu"
        style={{ transitionDuration: `${MENU_SLIDE_MS}ms` }}
        className={`relative flex h-full w-[min(22rem,88vw)] flex-col bg-paper text-ink shadow-2xl transition-transform ease-out ${open ? 'translate-x-0' : '-translate-x-full'}`}
      >
        <div className="flex h-16 items-center justify-between border-b border-line px-6">
          <span className="font-display text-3xl font-semibold">duuka</span>
          <button
            type="button"
            onClick={onClose}
            className="grid size-10 place-items-center hover:text-accent"
            aria-label="Close menu"
          >
            <X size={22} aria-hidden />
          </button>
        </div>
        {user && (
          <Link
            to="/profile"
            onClick={onClose}
            className="flex items-center gap-4 border-b border-line px-6 py-5 hover:bg-paper-2"
          >
            <MenuAvatar name={user.name || 'User'} open={open} />
            <span>
              <span className="block font-medium">{user.name || 'User'}</span>
              <span className="block text-xs text-ink-soft">Tap to view profile</span>
            </span>
          </Link>
        )}
        <ul className="flex-1 overflow-y-auto py-4">
          {entries.slice(0, 2).map((entry) => (
            <MenuEntry key={entry.to} entry={entry} onClose={onClose} />
          ))}
          <li>
            <Categories open={open} onClose={onClose} />
          </li>
          {entries.slice(2).map((entry) => (
            <MenuEntry key={entry.to} entry={entry} onClose={onClose} />
          ))}
        </ul>
        <p className="border-t border-line px-6 py-4 text-xs text-ink-soft">
          Kampala{store && ` · ${store.summary}`}
        </p>
      </nav>
    </dialog>
  );
}

function MenuEntry({ entry, onClose }: { entry: Entry; onClose: () => void }) {
  return (
    <li>
      <Link
        to={entry.to}
        onClick={onClose}
        className="block px-6 py-3 font-display text-2xl hover:bg-paper-2 hover:text-accent"
        activeProps={{ className: 'text-accent' }}
        activeOptions={{ exact: true }}
      >
        {entry.label}
      </Link>
    </li>
  );
}

/** The shop's categories (the header's dropdown is for wide screens only): read when opened. */
function Categories({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const categories = useQuery(
    trpc.catalogue.categories.queryOptions(undefined, {
      enabled: open,
      staleTime: Number.POSITIVE_INFINITY, // sent with the page, as the header's menu reads them
    }),
  );
  return (
    <details className="group">
      <summary className="flex cursor-pointer list-none items-center justify-between px-6 py-3 font-display text-2xl hover:bg-paper-2 hover:text-accent [&::-webkit-details-marker]:hidden">
        Categories
        <ChevronDown size={18} className="transition-transform group-open:rotate-180" aria-hidden />
      </summary>
      {categories.isError && (
        <p className="px-8 py-2 text-sm text-danger">Failed to fetch categories</p>
      )}
      <ul className="pb-2">
        {categories.data?.map((category) => (
          <li key={category.id}>
            <Link
              to="/products"
              search={{ category: category.id }}
              onClick={onClose}
              className="block px-8 py-2 text-base hover:bg-paper-2 hover:text-accent"
            >
              {category.name}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The shopper's picture (the profile's, read when the menu opens, so a new upload shows at once),
 * else their initial. */
function MenuAvatar({ name, open }: { name: string; open: boolean }) {
  const trpc = useTRPC();
  const profile = useQuery(trpc.account.profile.queryOptions(undefined, { enabled: open }));
  const picture = profile.data?.avatar_url;
  return picture ? (
    <img src={picture} alt="" className="size-12 shrink-0 rounded-full object-cover" />
  ) : (
    <span className="grid size-12 shrink-0 place-items-center rounded-full bg-ink font-display text-xl text-paper">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
