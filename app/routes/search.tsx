import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { FilterBar } from '#app/components/listing/FilterBar.tsx';
import { FILTER_KEYS, linkSearch, withoutFilters } from '#app/components/listing/listing-url.ts';
import { Pagination } from '#app/components/Pagination.tsx';
import { ProductGrid } from '#app/components/ProductGrid.tsx';
import { StatusBox } from '#app/components/StatusBox.tsx';
import { pageHead } from '#app/seo.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { piecesText, readSearchTerm, SEARCH_TERM_MAX, TEXT } from '#core/catalogue.ts';
import { activeFilterCount, filtersOf, searchPageSearch } from '#core/listing.ts';
import { FILTER_TEXT, noFilteredPiecesText } from '#core/listing-text.ts';

/** How long typing pauses before the search page searches (a phone searches as the shopper types). */
const TYPING_PAUSE_MS = 300;

/** The product search screen: every word in a name, description, category, colour or size
 * (issue 32), with the listing's filters and sort. */
export const Route = createFileRoute('/search')({
  validateSearch: searchPageSearch,
  loaderDeps: ({ search }) => search,
  // Rendered on the server with its results, so a shared filtered link opens filtered. Prefetched,
  // not awaited for errors: a failed search shows the spec's message in place.
  loader: ({ context, deps }) =>
    deps.q
      ? context.queryClient.prefetchQuery(
          context.trpc.catalogue.search.queryOptions(searchQuery(deps)),
        )
      : undefined,
  head: () =>
    pageHead({
      title: 'Search',
      description: 'Search the duuka collection by name, colour, size or category.',
      path: '/search',
    }),
  component: SearchScreen,
});

/** catalogue.search's input for the page's URL. */
function searchQuery(search: v.InferOutput<typeof searchPageSearch>) {
  return {
    term: search.q ?? '',
    page: search.page ?? 1,
    filters: filtersOf(search),
    sort: search.sort,
  };
}

function SearchScreen() {
  const search = Route.useSearch();
  const { q = '' } = search;
  const navigate = useNavigate();
  const [term, setTerm] = useState(q);
  // The box follows the URL when it changes from elsewhere ("Did you mean", Back); not while the
  // URL is following the box (a trailing space being typed is kept).
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    if (readSearchTerm(term) !== q) setTerm(q);
  }
  // Searches as the shopper types: once typing pauses, the URL follows the box (replacing the
  // entry, so Back leaves the page rather than stepping through every letter).
  useEffect(() => {
    const next = readSearchTerm(term);
    if (!next || next === q) return;
    const typing = setTimeout(() => {
      navigate({
        to: '/search',
        search: linkSearch({ ...search, page: undefined, q: next }),
        replace: true,
      });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(typing);
  }, [term, q, search, navigate]);
  const trpc = useTRPC();
  const results = useQuery({
    ...trpc.catalogue.search.queryOptions(searchQuery(search)),
    enabled: q.length > 0,
  });
  const filters = filtersOf(search);
  const filtered = activeFilterCount(filters) > 0;
  const cleared = { to: '/search', search: linkSearch(withoutFilters(search)) } as const;
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
            aria-label="Search products"
            maxLength={SEARCH_TERM_MAX}
            className="min-h-11 min-w-0 flex-1 border border-line bg-paper px-4 outline-none focus:border-ink"
          />
          <button type="submit" className="btn btn-primary shrink-0 px-4 sm:px-[1.4rem]">
            <Search size={16} aria-hidden /> Search
          </button>
        </form>
      </search>
      <div className="mt-10">
        {q && results.data && (results.data.total > 0 || filtered) && (
          <FilterBar
            action="/search"
            keep={{ q }}
            filters={results.data.filters}
            sort={results.data.sort}
            facets={results.data.facets}
            clear={cleared}
            onApply={(fields) => {
              const chosen = Object.fromEntries(FILTER_KEYS.map((key) => [key, fields[key]]));
              const next = v.parse(searchPageSearch, chosen);
              navigate({ to: '/search', search: linkSearch({ ...next, q }) });
            }}
          />
        )}
        {!q ? (
          <StatusBox>{TEXT.startTyping}</StatusBox>
        ) : results.isError ? (
          <StatusBox tone="error">{TEXT.searchFailed}</StatusBox>
        ) : !results.data ? (
          <StatusBox>Searching...</StatusBox>
        ) : results.data.total === 0 && filters ? (
          <StatusBox title="No matching pieces">
            <p>{noFilteredPiecesText(filters, q)}</p>
            <Link {...cleared} className="btn btn-primary mt-6">
              {FILTER_TEXT.clear}
            </Link>
          </StatusBox>
        ) : results.data.total === 0 ? (
          <StatusBox>
            {TEXT.noneFound}
            <DidYouMean names={results.data.suggestions} />
          </StatusBox>
        ) : (
          <>
            {filtered && (
              <p className="mb-6 text-sm text-ink-soft" role="status">
                {piecesText(results.data.total, results.data.totalCapped)}
              </p>
            )}
            <ProductGrid products={results.data.products} label={`Results for ${q}`} />
            <Pagination
              page={results.data.page}
              pageCount={results.data.pageCount}
              more={results.data.totalCapped}
              linkTo={(page) => ({ to: '/search', search: linkSearch({ ...search, page }) })}
            />
          </>
        )}
      </div>
    </div>
  );
}

/** "Did you mean Ankara Wrap Dress?": the names nearest a search that matched nothing, each a
 * search of its own. */
function DidYouMean({ names }: { names: readonly string[] }) {
  if (names.length === 0) return null;
  return (
    <p className="mt-3" data-testid="did-you-mean">
      {TEXT.didYouMean}{' '}
      {names.map((name, at) => (
        <span key={name}>
          {at > 0 && (at === names.length - 1 ? ' or ' : ', ')}
          <Link to="/search" search={{ q: name }} className="font-semibold text-ink underline">
            {name}
          </Link>
        </span>
      ))}
      ?
    </p>
  );
}
