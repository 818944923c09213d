import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Ban, Truck } from 'lucide-react';
import { AskOnWhatsApp } from '#app/components/AskOnWhatsApp.tsx';
import { ProductGrid } from '#app/components/ProductGrid.tsx';
import { Gallery } from '#app/components/product/Gallery.tsx';
import { ProductBuyBox, useChoice } from '#app/components/product/ProductBuyBox.tsx';
import { StatusBox } from '#app/components/StatusBox.tsx';
import { errorMessage } from '#app/error-message.ts';
import { orNotFound } from '#app/not-found.ts';
import {
  absoluteUrl,
  jsonLdScript,
  pageHead,
  productJsonLd,
  productShareImage,
  siteOrigin,
} from '#app/seo.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { type ProductDetail, TEXT } from '#core/catalogue.ts';
import { deliveryPromise } from '#core/delivery-rules.ts';
import { picturesFor } from '#core/pictures.ts';
import { productPageSearch } from '#core/product-search.ts';
import { COLOUR, SIZE, type Variant } from '#core/variants.ts';
import { productQuestion } from '#core/whatsapp-link.ts';

/** A product's own page: the shareable, server-rendered deep link. A slug that names no product
 * (or could not: too long, control characters) is the 404 view: catalogue.productBySlug says so. */
export const Route = createFileRoute('/products/$slug')({
  // ?variant={id}: the chosen size and colour, so a shared link opens it (a bad one: none).
  validateSearch: productPageSearch,
  loader: async ({ context, params }) => {
    // The breadcrumb's category and "You may also like" arrive with the page, read beside the
    // piece (by its slug), not after it: one trip to the database, not two in a row.
    const [product] = await Promise.all([
      orNotFound(
        context.queryClient.ensureQueryData(
          context.trpc.catalogue.productBySlug.queryOptions({ slug: params.slug }),
        ),
      ),
      context.queryClient.prefetchQuery(
        context.trpc.catalogue.related.queryOptions({ slug: params.slug }),
      ),
    ]);
    return product;
  },
  head: ({ loaderData: product }) => {
    if (!product) return { meta: [{ title: `${TEXT.productNotFound} · duuka` }] };
    const head = pageHead({
      title: product.name,
      description: product.description ?? product.name,
      path: `/products/${product.slug}`,
      image: productShareImage(product),
      type: 'product',
    });
    return { ...head, scripts: [jsonLdScript(productJsonLd(product, siteOrigin()))] };
  },
  notFoundComponent: () => (
    <StatusBox title={TEXT.productNotFound}>
      <p>This piece is no longer in the collection.</p>
      <Link to="/shop" className="btn btn-primary mt-6">
        Browse All Products
      </Link>
    </StatusBox>
  ),
  errorComponent: ({ error }) => <StatusBox tone="error">{errorMessage(error)}</StatusBox>,
  component: ProductPage,
});

function ProductPage() {
  const trpc = useTRPC();
  const { slug } = Route.useParams();
  const { data: product } = useSuspenseQuery(trpc.catalogue.productBySlug.queryOptions({ slug }));
  const related = useQuery(trpc.catalogue.related.queryOptions({ slug: product.slug }));
  const category = related.data?.category;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-xs uppercase tracking-widest text-ink-soft">
        <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <li>
            <Link to="/shop" className="hover:text-accent">
              Shop
            </Link>
          </li>
          {category && (
            <li className="flex items-center gap-2">
              <span aria-hidden>›</span>
              <Link to="/products" search={{ category: category.id }} className="hover:text-accent">
                {category.name}
              </Link>
            </li>
          )}
          <li className="flex min-w-0 items-center gap-2">
            <span aria-hidden>›</span>
            <span aria-current="page" className="truncate text-ink">
              {product.name}
            </span>
          </li>
        </ol>
      </nav>
      {/* Keyed by the product: "You may also like" leads to another piece on this same route. */}
      <ProductChoice key={product.id} product={product} />
      {related.data && related.data.products.length > 0 && (
        <section aria-labelledby="related-heading" className="mt-16 border-t border-line pt-10">
          <p className="eyebrow">{category ? `More in ${category.name}` : 'Chosen for you'}</p>
          <h2 id="related-heading" className="mt-1 mb-8 font-display text-4xl font-medium">
            You may also like
          </h2>
          <ProductGrid products={related.data.products} label="You may also like" below />
        </section>
      )}
    </div>
  );
}

/** The gallery beside the buy box; the chosen variant is kept in the URL (replace, no scroll). */
function ProductChoice({ product }: { product: ProductDetail }) {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const { chosen, choose } = useChoice(product, search.variant, (variant: Variant | null) => {
    // After the next paint: the tapped size shows at once, and the address (which re-renders the
    // whole page through the router) follows a frame later (issue 38: the Size tap's INP).
    afterNextPaint(() =>
      navigate({
        search: (previous) => ({ ...previous, variant: variant?.id }),
        replace: true,
        resetScroll: false,
      }),
    );
  });
  const colour = chosen[COLOUR];
  return (
    <article className="mt-6 grid gap-6 md:grid-cols-2 md:gap-12 lg:gap-16">
      {/* A new colour shows its own pictures, from the first. */}
      {/* Edge to edge on a phone. */}
      <div className="-mx-4 sm:-mx-6 md:mx-0">
        <Gallery
          key={colour ?? ''}
          pictures={picturesFor(product.images, colour)}
          name={product.name}
          priority
        />
      </div>
      <div>
        <ProductBuyBox product={product} chosen={chosen} onChoose={choose} headingLevel={1} />
        {/* Her question names the size and colour she has chosen and the piece's own link. */}
        <AskOnWhatsApp
          className="-mt-1 mb-4 w-full"
          text={productQuestion({
            name: product.name,
            size: chosen[SIZE],
            colour,
            link: absoluteUrl(`/products/${product.slug}`, siteOrigin()),
          })}
        />
        <DeliveryPromise product={product} />
        {!product.returnable && (
          <p
            className="mt-3 flex items-start gap-3 text-sm text-ink-soft"
            data-testid="not-returnable"
          >
            <Ban size={18} strokeWidth={1.5} className="mt-px shrink-0 text-gold" aria-hidden />
            <span className="text-pretty">{TEXT.notReturnable}</span>
          </p>
        )}
      </div>
    </article>
  );
}

/**
 * What the shop's delivery options promise ("Delivery in Kampala from UGX 5,000, 1–3 days · free
 * pickup"), read with the product in its one round trip. On this page only: the product dialog
 * stays light, and the promise's code loads with the page that shows it.
 */
function DeliveryPromise({ product }: { product: ProductDetail }) {
  const promise = product.delivery ? deliveryPromise(product.delivery) : '';
  if (!promise) return null;
  return (
    <p
      className="mt-2 flex items-start gap-3 border-t border-line pt-5 text-sm text-ink-soft"
      data-testid="delivery-promise"
    >
      <Truck size={18} strokeWidth={1.5} className="mt-px shrink-0 text-gold" aria-hidden />
      <span className="text-pretty">{promise}</span>
    </p>
  );
}

/** Runs `then` once the browser has painted the next frame. */
function afterNextPaint(then: () => unknown) {
  requestAnimationFrame(() => setTimeout(then, 0));
}
