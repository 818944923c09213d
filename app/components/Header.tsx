import { Link } from '@tanstack/react-router';

/** The fixed header. Menu, categories, search, profile and cart arrive with their issues. */
export function Header() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b border-line bg-paper/90 backdrop-blur">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between px-4 sm:px-6">
        <Link
          to="/"
          className="font-display text-3xl font-semibold tracking-wide"
          aria-label="duuka home"
        >
          duuka
        </Link>
        <nav aria-label="Main" className="flex items-center gap-6 text-sm font-medium">
          <Link to="/" className="hover:text-accent">
            Home
          </Link>
        </nav>
      </div>
    </header>
  );
}
