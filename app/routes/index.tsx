import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { HeroCarousel } from '#app/components/HeroCarousel.tsx';
import { ProductRow } from '#app/components/ProductRow.tsx';
import { productRouteStates } from '#app/components/StatusBox.tsx';
import { StoreJsonLd } from '#app/components/StoreJsonLd.tsx';
import { pageHead } from '#app/seo.ts';
import { useTRPC } from '#app/trpc-client.ts';

export const Route = createFileRoute('/')({
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.catalogue.home.queryOptions()),
  head: () =>
    pageHead({
      description:
        'Premium fashion from Kampala: kitenge tailoring, dresses, shoes, bags and jewellery, priced in UGX and delivered across Uganda.',
      path: '/',
    }),
  ...productRouteStates,
  component: Home,
});

function Home() {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.catalogue.home.queryOptions());
  return (
    <>
      {/* The boutique's LocalBusiness (address, pin, hours per day) for search engines. */}
      <StoreJsonLd />
      <HeroCarousel slides={data.slides} products={data.newArrivals} />
      {data.featured.length > 0 && (
        <ProductRow
          eyebrow="Curated"
          title="Featured Collection"
          products={data.featured}
          scrollButtons
          viewAll={{ label: 'View All Products', link: { to: '/shop' } }}
        />
      )}
      {data.newArrivals.length > 0 && (
        <ProductRow
          eyebrow="Just in"
          title="New Arrivals"
          products={data.newArrivals}
          scrollButtons
          viewAll={{ label: 'View all', link: { to: '/products', search: { group: 'new' } } }}
        />
      )}
      <section className="mx-auto mt-10 max-w-7xl px-4 sm:px-6">
        <div className="band grid items-center gap-8 px-8 py-16 text-paper [color-scheme:light] md:grid-cols-[1.4fr_1fr] md:px-16">
          <div>
            <p className="eyebrow !text-[#cfa96f]">Members</p>
            <h2 className="mt-3 font-display text-5xl font-medium">Join Our Fashion Community</h2>
            <p className="mt-4 max-w-lg text-paper/75">
              Save your details for a faster checkout, follow your orders and hear first about new
              pieces from our Kampala ateliers.
            </p>
          </div>
          <div className="flex flex-wrap gap-3 md:justify-end">
            <Link to="/register" className="btn bg-paper text-ink hover:bg-[#cfa96f]">
              Create Account
            </Link>
            <Link
              to="/shop"
              className="btn btn-outline border-paper/60 hover:!bg-paper hover:!text-ink"
            >
              Browse Collection
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
