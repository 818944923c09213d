import { Link } from '@tanstack/react-router';
import { Menu, Search, ShoppingBag, User, X } from 'lucide-react';
import { useState } from 'react';
import { useCart } from '#app/cart-store.tsx';
import { CategoriesMenu } from './CategoriesMenu';
import { ChatButton } from './chat/Chat';
import { SearchForm } from './SearchForm';
import { SideMenu } from './SideMenu';

/**
 * The fixed header: menu, categories and shop (desktop), the assistant, logo, search (toggled on
 * mobile), profile, cart. `chat` is false at the desk, which has no shoppers' assistant.
 */
export function Header({ chat }: { chat: boolean }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  return (
    <>
      <header className="fixed inset-x-0 top-0 z-40 border-b border-line bg-paper/95 backdrop-blur">
        <div className="mx-auto grid h-16 max-w-7xl grid-cols-[1fr_auto_1fr] items-center gap-4 px-4 sm:px-6">
          <div className="flex items-center gap-1 lg:gap-6">
            <button
              type="button"
              onClick={() => setMenuOpen(true)}
              className="-ml-2 grid size-10 place-items-center hover:text-accent"
              aria-label="Open menu"
              aria-expanded={menuOpen}
              aria-controls="side-menu"
            >
              <Menu size={22} aria-hidden />
            </button>
            <nav aria-label="Shop" className="hidden items-center gap-6 lg:flex">
              <CategoriesMenu />
              <Link to="/shop" className="text-sm font-medium hover:text-accent">
                Shop
              </Link>
            </nav>
            {chat && <ChatButton />}
          </div>
          <Link
            to="/"
            className="font-display text-3xl font-semibold tracking-wide"
            aria-label="duuka home"
          >
            duuka
          </Link>
          <div className="flex items-center justify-end gap-2">
            <div className="hidden w-56 md:block">
              <SearchForm />
            </div>
            <button
              type="button"
              className="grid size-10 place-items-center hover:text-accent md:hidden"
              onClick={() => setSearchOpen((o) => !o)}
              aria-label={searchOpen ? 'Close search' : 'Open search'}
              aria-expanded={searchOpen}
            >
              {searchOpen ? <X size={20} aria-hidden /> : <Search size={20} aria-hidden />}
            </button>
            <Link
              to="/profile"
              className="grid size-10 place-items-center hover:text-accent"
              aria-label="Profile"
            >
              <User size={20} aria-hidden />
            </Link>
            <CartLink />
          </div>
        </div>
        {searchOpen && (
          <div className="border-t border-line px-4 pb-3 md:hidden">
            <SearchForm autoFocus onDone={() => setSearchOpen(false)} />
          </div>
        )}
      </header>
      <SideMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
    </>
  );
}

/** The cart link with the item count (a badge over the bag: it never moves the header). */
function CartLink() {
  const { itemCount } = useCart();
  return (
    <Link
      to="/cart"
      className="relative -mr-2 grid size-10 place-items-center hover:text-accent"
      aria-label={itemCount > 0 ? `Cart, ${itemCount} item${itemCount === 1 ? '' : 's'}` : 'Cart'}
    >
      <ShoppingBag size={20} aria-hidden />
      {itemCount > 0 && (
        <span
          aria-hidden
          data-testid="cart-count"
          className="absolute top-0.5 right-0 grid h-[1.15rem] min-w-[1.15rem] place-items-center rounded-full bg-accent px-1 text-[0.65rem] leading-none font-bold text-accent-ink tabular-nums"
        >
          {itemCount > 99 ? '99+' : itemCount}
        </span>
      )}
    </Link>
  );
}
