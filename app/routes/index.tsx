import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ProductImage } from '../components/ProductImage';
import { ProductRow } from '../components/ProductRow';
import { useTRPC } from '../trpc';

export const Route = createFileRoute('/')({
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.catalogue.home.queryOptions()),
  component: Home,
});

function Home() {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalogue.home.queryOptions());
  const lead = data.newArrivals.find((p) => p.image_url) ?? null;
  return (
    <>
      <section className="relative isolate overflow-hidden bg-paper-2">
        <div className="mx-auto grid min-h-[calc(100dvh-4rem)] max-w-7xl items-center gap-10 px-4 py-12 sm:px-6 md:grid-cols-2">
          <div>
            <p className="eyebrow">New Collection</p>
            <h1 className="mt-4 font-display text-6xl leading-[0.95] font-medium md:text-7xl">
              Dressed for Kampala evenings
            </h1>
            <p className="mt-6 max-w-md text-ink-soft">
              Kitenge tailoring, soft leather and hand-finished jewellery — made to be worn, and
              kept.
            </p>
            <Link to="/" className="btn btn-primary mt-8">
              Shop Now
            </Link>
          </div>
          <div className="mx-auto w-full max-w-md">
            <ProductImage src={lead?.image_url ?? null} alt={lead?.name ?? 'duuka'} eager />
          </div>
        </div>
      </section>
      <ProductRow eyebrow="Curated" title="Featured Collection" products={data.featured} />
      <ProductRow eyebrow="Just in" title="New Arrivals" products={data.newArrivals} />
    </>
  );
}
