import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Pagination } from '#app/components/Pagination.tsx';
import { ProductGrid } from '#app/components/ProductGrid.tsx';
import { ProductRow } from '#app/components/ProductRow.tsx';
import { productRouteStates, StatusBox } from '#app/components/StatusBox.tsx';
import { errorMessage } from '#app/error-message.ts';
import { pageHead } from '#app/seo.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { countText, shopSearch } from '#core/catalogue.ts';

export const Route = createFileRoute('/shop')({
  // Read as the search screen reads it: a bad ?q= or ?page= is never an error page.
  validateSearch: shopSearch,
  loaderDeps: ({ search }) => ({ q: search.q ?? '', page: search.page ?? 1 }),
  loader: ({ context, deps }) =>
    deps.q
      ? context.queryClient.ensureQueryData(
          context.trpc.catalogue.search.queryOptions({
            term: deps.q,
            page: deps.page,
          }),
        )
      : context.queryClient.ensureQueryData(context.trpc.catalogue.shop.queryOptions()),
  head: () =>
    pageHead({
      title: 'Shop',
      description:
        'The whole duuka collection: new arrivals, featured pieces, affordable picks and the premium collection.',
      path: '/shop',
    }),
  ...productRouteStates,
  component: Shop,
});

function Shop() {
  const { q, page } = Route.useSearch();
  return (
    <div className="pb-10">
      <header className="mx-auto max-w-7xl px-4 pt-12 pb-2 sm:px-6">
        <p className="eyebrow">The collection</p>
        <h1 className="mt-2 font-display text-6xl font-medium">Shop</h1>
        <p className="mt-3 text-sm text-ink-soft">
          Giving a present?{' '}
          <Link to="/gift-cards" className="font-medium text-ink underline underline-offset-4">
            Send a gift card by text
          </Link>
        </p>
      </header>
      {q ? <SearchResults term={q} page={page ?? 1} /> : <GroupRows />}
    </div>
  );
}

function GroupRows() {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalogue.shop.queryOptions());
  if (data.total === 0) {
    return (
      <StatusBox title="No Products Available">
        <p>We're working hard to bring you amazing products. Check back soon!</p>
        <button
          type="button"
          className="btn btn-primary mt-6"
          onClick={() => window.location.reload()}
        >
          Refresh Page
        </button>
      </StatusBox>
    );
  }
  return data.rows.map((row, index) => (
    <ProductRow
      key={row.group}
      first={index === 0}
      title={row.title}
      products={row.products}
      count={row.count}
      countCapped={row.countCapped}
      scrollButtons
      viewAll={
        row.count > row.products.length
          ? { label: 'View all', link: { to: '/products', search: { group: row.group } } }
          : undefined
      }
    />
  ));
}

function SearchResults({ term, page }: { term: string; page: number }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const results = useQuery(trpc.catalogue.search.queryOptions({ term, page }));
  if (results.isError) return <StatusBox tone="error">{errorMessage(results.error)}</StatusBox>;
  if (!results.data) return <StatusBox>Searching...</StatusBox>;
  const { products, total, totalCapped } = results.data;
  if (total === 0) {
    return (
      <StatusBox title="No Results Found">
        <p>We couldn't find anything for "{term}".</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/shop" className="btn btn-primary">
            Browse All Products
          </Link>
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => {
              navigate({ to: '/shop' });
              document
                .querySelector<HTMLInputElement>('input[type="search"]:not([hidden])')
                ?.focus();
            }}
          >
            Try Another Search
          </button>
        </div>
      </StatusBox>
    );
  }
  return (
    <section className="mx-auto max-w-7xl px-4 pt-6 sm:px-6" aria-labelledby="results-heading">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-4 border-b border-line pb-4">
        <h2 id="results-heading" className="text-lg">
          {countText(total, totalCapped)} product(s) found for "{term}"
        </h2>
        <Link to="/shop" className="btn btn-outline">
          Clear Search
        </Link>
      </div>
      <ProductGrid products={products} label={`Results for ${term}`} />
      <Pagination
        page={results.data.page}
        pageCount={results.data.pageCount}
        more={totalCapped}
        linkTo={(p) => ({ to: '/shop', search: { q: term, page: p } })}
      />
    </section>
  );
}
