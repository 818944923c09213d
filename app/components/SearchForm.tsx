import { useNavigate } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { readSearchTerm, SEARCH_TERM_MAX } from '#core/catalogue.ts';

/** The header's search: an empty term does nothing; otherwise the shop shows the results. The
 * term is read by the same rule as the shop's ?q= (core/catalogue.ts). */
export function SearchForm({
  autoFocus = false,
  onDone,
}: {
  autoFocus?: boolean;
  onDone?: () => void;
}) {
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  return (
    <search>
      <form
        className="flex items-center border-b border-ink/30 focus-within:border-ink"
        onSubmit={(event) => {
          event.preventDefault();
          const q = readSearchTerm(term);
          if (!q) return;
          navigate({ to: '/shop', search: { q } });
          onDone?.();
        }}
      >
        <input
          type="search"
          name="q"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          placeholder="Search products..."
          aria-label="Search products"
          maxLength={SEARCH_TERM_MAX}
          // biome-ignore lint/a11y/noAutofocus: opened on request by the mobile search toggle.
          autoFocus={autoFocus}
          className="w-full bg-transparent py-2 text-sm outline-none placeholder:text-ink-soft"
        />
        <button type="submit" className="grid size-9 place-items-center" aria-label="Search">
          <Search size={17} aria-hidden />
        </button>
      </form>
    </search>
  );
}
