import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { TEXT } from '#core/catalogue.ts';
import { ProductDetails } from '../../components/ProductDialog';
import { ProductImage } from '../../components/ProductImage';
import { errorText, StatusBox } from '../../components/StatusBox';
import { orNotFound } from '../../not-found';
import { jsonLdScript, pageHead, productJsonLd, siteOrigin } from '../../seo';
import { useTRPC } from '../../trpc';

/** A product's own page: the shareable, server-rendered deep link. A slug that names no product
 * (or could not: too long, control characters) is the 404 view: catalogue.productBySlug says so. */
export const Route = createFileRoute('/products/$slug')({
  loader: ({ context, params }) =>
    orNotFound(
      context.queryClient.ensureQueryData(
        context.trpc.catalogue.productBySlug.queryOptions({ slug: params.slug }),
      ),
    ),
  head: ({ loaderData: product }) => {
    if (!product) return { meta: [{ title: `${TEXT.productNotFound} — duuka` }] };
    const head = pageHead({
      title: product.name,
      description: product.description ?? product.name,
      path: `/products/${product.slug}`,
      image: product.image_url,
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
  errorComponent: ({ error }) => <StatusBox tone="error">{errorText(error)}</StatusBox>,
  component: ProductPage,
});

function ProductPage() {
  const trpc = useTRPC();
  const { slug } = Route.useParams();
  const { data: product } = useSuspenseQuery(trpc.catalogue.productBySlug.queryOptions({ slug }));
  return (
    <article className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:px-6 md:grid-cols-2 md:gap-12">
      <ProductImage src={product.image_url} alt={product.name} eager />
      <div>
        <nav
          aria-label="Breadcrumb"
          className="px-6 pt-2 text-xs uppercase tracking-widest text-ink-soft md:px-10"
        >
          <Link to="/shop" className="hover:text-accent">
            Shop
          </Link>{' '}
          / <span>{product.name}</span>
        </nav>
        <ProductDetails product={product} headingLevel={1} />
      </div>
    </article>
  );
}
