import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChevronDown } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTRPC } from '#app/trpc-client.ts';

/** Desktop Categories dropdown: opens on hover or click; Esc and clicking elsewhere close it. */
export function CategoriesMenu() {
  const trpc = useTRPC();
  // Sent with the page (the root loader): never fetched again while the page lives, however old
  // an edge-cached copy's data is (a new category shows at the next page load).
  const categories = useQuery(
    trpc.catalogue.categories.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }),
  );
  const [open, setOpen] = useState(false);
  // A pointer that opened the menu by hovering also clicks: that click must not close it again.
  const openedByHover = useRef(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      )
        setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover opening is a convenience; the button is the control.
    <div
      ref={root}
      className="relative"
      onMouseEnter={() => {
        openedByHover.current = !open;
        setOpen(true);
      }}
      onMouseLeave={() => setOpen(false)}
    >
      <button
        type="button"
        className="flex h-16 items-center gap-1 text-sm font-medium hover:text-accent"
        aria-expanded={open}
        aria-controls="categories-menu"
        onClick={() => {
          if (openedByHover.current) openedByHover.current = false;
          else setOpen((o) => !o);
        }}
      >
        Categories <ChevronDown size={14} aria-hidden />
      </button>
      <div
        id="categories-menu"
        hidden={!open}
        className="absolute left-1/2 top-full w-64 -translate-x-1/2 border border-line bg-paper py-3 shadow-xl shadow-ink/10"
      >
        {categories.isError && (
          <p className="px-5 py-2 text-sm text-danger">Failed to fetch categories</p>
        )}
        <ul>
          {categories.data?.map((category) => (
            <li key={category.id}>
              <Link
                to="/products"
                search={{ category: category.id }}
                onClick={() => setOpen(false)}
                className="block px-5 py-2 text-sm hover:bg-paper-2 hover:text-accent"
              >
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
