import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { readSearchTerm, SEARCH_TERM_MAX, searchScreenSearch, TEXT } from '#core/catalogue.ts';
import { ProductGrid } from '../components/ProductGrid';
import { StatusBox } from '../components/StatusBox';
import { pageHead } from '../seo';
import { useTRPC } from '../trpc';

/** The product search screen: names only. */
export const Route = createFileRoute('/search')({
  validateSearch: searchScreenSearch,
  head: () =>
    pageHead({
      title: 'Search',
      description: 'Search the duuka collection by name.',
      path: '/search',
    }),
  component: SearchScreen,
});

function SearchScreen() {
  const { q = '' } = Route.useSearch();
  const navigate = useNavigate();
  const [term, setTerm] = useState(q);
  const trpc = useTRPC();
  const results = useQuery({
    ...trpc.catalogue.search.queryOptions({ term: q, scope: 'name' }),
    enabled: q.length > 0,
  });
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <p className="eyebrow">Find a piece</p>
      <h1 className="mt-2 font-display text-6xl font-medium">Search</h1>
      <search>
        <form
          className="mt-8 flex max-w-2xl gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            const next = readSearchTerm(term);
            if (next) navigate({ to: '/search', search: { q: next } });
          }}
        >
          <input
            type="search"
            required
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            placeholder="Search products..."
            aria-label="Search products by name"
            maxLength={SEARCH_TERM_MAX}
            className="min-h-11 min-w-0 flex-1 border border-line bg-paper px-4 outline-none focus:border-ink"
          />
          <button type="submit" className="btn btn-primary shrink-0 px-4 sm:px-[1.4rem]">
            <Search size={16} aria-hidden /> Search
          </button>
        </form>
      </search>
      <div className="mt-10">
        {!q ? (
          <StatusBox>{TEXT.startTyping}</StatusBox>
        ) : results.isError ? (
          <StatusBox tone="error">{TEXT.searchFailed}</StatusBox>
        ) : !results.data ? (
          <StatusBox>Searching...</StatusBox>
        ) : results.data.total === 0 ? (
          <StatusBox>{TEXT.noneFound}</StatusBox>
        ) : (
          <ProductGrid products={results.data.products} label={`Results for ${q}`} />
        )}
      </div>
    </div>
  );
}
