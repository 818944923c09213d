// The catalogue (/desk/products): every product, drafts and archived ones included, newest
// first, searched by name or SKU, filtered by status. Each row opens the editor.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { inputClass, Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { ProductStatusBadge, statusName } from '#app/components/desk/ProductStatusBadge.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { PRODUCT_STATUSES, type ProductStatus } from '#core/desk-roles.ts';
import { formatUGX } from '#core/money.ts';

export const Route = createFileRoute('/desk/products/')({
  head: privatePageHead('Products · Desk'),
  component: Products,
});

function Products() {
  const trpc = useTRPC();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<ProductStatus | 'all'>('all');
  const search = useDeferredValue(q.trim());
  const list = useQuery({
    ...trpc.desk.products.queryOptions({
      ...(search ? { q: search } : {}),
      ...(status === 'all' ? {} : { status }),
    }),
    placeholderData: (previous) => previous,
  });

  return (
    <DeskPage
      title="Products"
      action={
        <Link
          to="/desk/products/$productId"
          params={{ productId: 'new' }}
          className="btn btn-primary min-h-11"
        >
          New product
        </Link>
      }
    >
      <div className="mt-6 grid gap-4 md:grid-cols-[1fr_auto] md:items-end">
        <div>
          <label
            htmlFor="product-search"
            className="text-xs font-semibold uppercase tracking-[0.16em]"
          >
            Search the catalogue
          </label>
          <div className="relative">
            <Search
              size={18}
              aria-hidden
              className="pointer-events-none absolute left-4 top-1/2 mt-1 -translate-y-1/2 text-ink-soft"
            />
            <input
              id="product-search"
              type="search"
              value={q}
              onChange={(event) => setQ(event.target.value)}
              placeholder="Name or SKU"
              maxLength={100}
              className={`${inputClass} pl-11`}
            />
          </div>
        </div>
        <fieldset>
          <legend className="text-xs font-semibold uppercase tracking-[0.16em]">Show</legend>
          <div className="mt-2 flex overflow-x-auto border border-line">
            {(['all', ...PRODUCT_STATUSES] as const).map((value) => (
              <label
                key={value}
                className="relative inline-flex min-h-11 flex-1 cursor-pointer items-center justify-center px-4 text-sm font-medium text-ink-soft has-[:checked]:bg-ink has-[:checked]:text-paper has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ink"
              >
                <input
                  type="radio"
                  name="product-status"
                  value={value}
                  checked={status === value}
                  onChange={() => setStatus(value)}
                  className="sr-only"
                />
                {value === 'all' ? 'All' : statusName(value)}
              </label>
            ))}
          </div>
        </fieldset>
      </div>

      {list.isError ? (
        <div className="mt-6">
          <Notice tone="error">
            {errorMessage(list.error, 'The products could not be loaded.')}
          </Notice>
        </div>
      ) : list.isPending ? (
        <p role="status" className="py-16 text-center text-ink-soft">
          Loading products...
        </p>
      ) : list.data.length === 0 ? (
        <p role="status" className="py-16 text-center text-ink-soft">
          {search || status !== 'all' ? 'No products match.' : 'No products yet.'}
        </p>
      ) : (
        <ul aria-label="Products" className="mt-6 divide-y divide-line border-y border-line">
          {list.data.map((product) => (
            <li key={product.id}>
              <Link
                to="/desk/products/$productId"
                params={{ productId: String(product.id) }}
                className="grid grid-cols-[3.5rem_1fr_auto] items-center gap-4 py-3 hover:bg-paper-2 sm:grid-cols-[4rem_1fr_auto] sm:px-2"
              >
                {product.image ? (
                  <img
                    src={product.image}
                    alt=""
                    width={64}
                    height={80}
                    loading="lazy"
                    className="aspect-[4/5] w-14 border border-line object-cover sm:w-16"
                  />
                ) : (
                  <span
                    aria-hidden
                    className="aspect-[4/5] w-14 border border-line bg-paper-2 sm:w-16"
                  />
                )}
                <span className="min-w-0">
                  <span className="line-clamp-2 font-medium">{product.name}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-2 text-sm text-ink-soft">
                    <ProductStatusBadge status={product.status} />
                    <span className="tabular-nums">
                      {product.variants === 1 ? '1 variant' : `${product.variants} variants`}
                    </span>
                  </span>
                </span>
                <span className="text-right text-sm tabular-nums">
                  <span className="block font-medium">
                    {product.priceFrom === product.priceTo
                      ? formatUGX(product.priceFrom)
                      : `From ${formatUGX(product.priceFrom)}`}
                  </span>
                  <span
                    className={product.stock === 0 ? 'block text-danger' : 'block text-ink-soft'}
                  >
                    {product.stock === 0 ? 'Out of stock' : `${product.stock} in stock`}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </DeskPage>
  );
}
