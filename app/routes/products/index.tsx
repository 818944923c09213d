import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router';
import * as v from 'valibot';
import { FilterBar } from '#app/components/listing/FilterBar.tsx';
import { FILTER_KEYS, linkSearch, withoutFilters } from '#app/components/listing/listing-url.ts';
import { Pagination } from '#app/components/Pagination.tsx';
import { ProductGrid } from '#app/components/ProductGrid.tsx';
import { productRouteStates, StatusBox } from '#app/components/StatusBox.tsx';
import { orNotFound } from '#app/not-found.ts';
import { pageHead } from '#app/seo.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { NO_SUCH_CATEGORY, piecesText, SHOP_GROUPS, TEXT } from '#core/catalogue.ts';
import { filtersOf, listingPageSearch } from '#core/listing.ts';
import { FILTER_TEXT, noFilteredPiecesText } from '#core/listing-text.ts';

/** /products (everything), /products?category={id}, /products?group=...: the full listing. */
export const Route = createFileRoute('/products/')({
  // A bad page reads as page 1 and an unknown group as the whole collection; a category id that
  // cannot exist reads as NO_SUCH_CATEGORY, answered here with the 404 view.
  validateSearch: listingPageSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    if (deps.category === NO_SUCH_CATEGORY) throw notFound();
    return orNotFound(
      context.queryClient.ensureQueryData(
        context.trpc.catalogue.list.queryOptions(listQuery(deps)),
      ),
    );
  },
  notFoundComponent: () => (
    <StatusBox title={TEXT.categoryNotFound}>
      <p>This category does not exist any more. The rest of the collection is still here.</p>
    </StatusBox>
  ),
  head: ({ loaderData, match }) => {
    if (match.search.category !== undefined && !loaderData?.category) {
      return { meta: [{ title: `${TEXT.categoryNotFound} · duuka` }] };
    }
    const title =
      loaderData?.category?.name ??
      (match.search.group ? SHOP_GROUPS[match.search.group] : 'All Products');
    const query = new URLSearchParams(
      Object.entries(match.search)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, String(value)]),
    ).toString();
    return pageHead({
      title,
      description: `${title} at duuka: premium fashion from Kampala, priced in UGX.`,
      path: query ? `/products?${query}` : '/products',
    });
  },
  ...productRouteStates,
  component: Listing,
});

function Listing() {
  const trpc = useTRPC();
  const search = Route.useSearch();
  const navigate = useNavigate();
  const { data } = useSuspenseQuery(trpc.catalogue.list.queryOptions(listQuery(search)));
  const title = data.category?.name ?? (search.group ? SHOP_GROUPS[search.group] : 'All Products');
  const filters = filtersOf(search);
  const keep = { category: search.category, group: search.group };
  const cleared = { to: '/products', search: linkSearch(withoutFilters(search)) } as const;
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4 border-b border-line pb-6">
        <div>
          <p className="eyebrow">{data.category ? 'Category' : 'The collection'}</p>
          <h1 className="mt-2 font-display text-6xl font-medium">{title}</h1>
        </div>
        <p className="text-sm text-ink-soft">{piecesText(data.total, data.totalCapped)}</p>
      </header>
      <FilterBar
        action="/products"
        keep={keep}
        filters={data.filters}
        sort={data.sort}
        facets={data.facets}
        clear={cleared}
        onApply={(fields) => {
          const chosen = Object.fromEntries(FILTER_KEYS.map((key) => [key, fields[key]]));
          const next = v.parse(listingPageSearch, { ...chosen });
          navigate({ to: '/products', search: linkSearch({ ...next, ...keep }) });
        }}
      />
      {data.total === 0 && filters ? (
        <StatusBox title="No matching pieces">
          <p>{noFilteredPiecesText(filters)}</p>
          <Link {...cleared} className="btn btn-primary mt-6">
            {FILTER_TEXT.clear}
          </Link>
        </StatusBox>
      ) : data.total === 0 ? (
        <StatusBox title="Nothing here yet">
          <p>New pieces arrive every week. Browse the rest of the collection meanwhile.</p>
        </StatusBox>
      ) : (
        <ProductGrid products={data.products} label={title} />
      )}
      <Pagination
        page={data.page}
        pageCount={data.pageCount}
        more={data.totalCapped}
        linkTo={(page) => ({ to: '/products', search: linkSearch({ ...search, page }) })}
      />
    </div>
  );
}

/** catalogue.list's input for the page's URL. */
function listQuery(search: v.InferOutput<typeof listingPageSearch>) {
  return {
    categoryId: search.category,
    group: search.group,
    page: search.page ?? 1,
    filters: filtersOf(search),
    sort: search.sort,
  };
}
