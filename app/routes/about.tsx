import { createFileRoute, Link } from '@tanstack/react-router';
import { Gem, HandHeart, Leaf, Scissors } from 'lucide-react';
import { pageHead } from '#app/seo.ts';

export const Route = createFileRoute('/about')({
  head: () =>
    pageHead({
      title: 'About',
      description:
        'Our story: a small Kampala boutique founded in 2015, grown into an internationally recognised fashion house. Meet the founders and the values behind every duuka piece.',
      path: '/about',
    }),
  component: About,
});

const MILESTONES = [
  {
    year: '2015',
    text: 'A small boutique opens on a busy Kampala street, with six rails and one tailor.',
  },
  {
    year: '2019',
    text: 'Our own workshop: pattern cutters, tailors and beadworkers under one roof.',
  },
  {
    year: 'Today',
    text: 'An internationally recognised label, worn from Kampala to London and beyond.',
  },
];

const VALUES = [
  {
    Icon: Leaf,
    title: 'Sustainability',
    text: 'Small runs, natural fibres and barkcloth sourced with care. We make what will be worn, and mend what we make.',
  },
  {
    Icon: Scissors,
    title: 'Quality Craftsmanship',
    text: 'Every seam is finished by hand in our Kampala workshop, checked twice and made to last for years.',
  },
  {
    Icon: HandHeart,
    title: 'Community Focus',
    text: 'We train and employ local artisans and pay them fairly, so the skills behind each piece stay at home.',
  },
  {
    Icon: Gem,
    title: 'African Inspiration',
    text: 'Kitenge prints, Ankole horn and cowrie details — heritage we wear with pride, cut for modern life.',
  },
];

const FOUNDERS = [
  {
    name: 'Amara Nakato',
    role: 'Creative Director',
    image: '/images/founders/amara-nakato.svg',
    bio: 'Amara sketched her first collection on the back of market receipts. She leads design, pairing bold kitenge with clean, modern tailoring.',
  },
  {
    name: 'Daniel Ssemwogerere',
    role: 'Production Lead',
    image: '/images/founders/daniel-ssemwogerere.svg',
    bio: 'A tailor’s son from Masaka, Daniel runs the workshop: fabric sourcing, pattern cutting and the quality checks every piece must pass.',
  },
  {
    name: 'Grace Atim',
    role: 'Community Relations',
    image: '/images/founders/grace-atim.svg',
    bio: 'Grace looks after the people behind duuka — our artisans, training programmes and customers — and keeps every promise we make.',
  },
];

function About() {
  return (
    <>
      <section aria-labelledby="about-hero" className="relative overflow-hidden bg-paper-2">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-5 py-16 sm:px-6 md:py-24 lg:grid-cols-[1.1fr_1fr]">
          <div>
            <p className="eyebrow text-accent">About duuka</p>
            <h1
              id="about-hero"
              className="mt-4 font-display text-6xl leading-[0.95] font-medium sm:text-7xl lg:text-8xl"
            >
              Our Story
            </h1>
            <p className="mt-6 max-w-lg font-display text-2xl leading-snug text-ink-soft italic sm:text-3xl">
              Made in Kampala, worn with pride — fashion that carries where it comes from.
            </p>
          </div>
          <div
            className="relative mx-auto grid w-full max-w-lg grid-cols-2 gap-4 sm:gap-6"
            aria-hidden
          >
            <img
              src="/images/products/ankara-wrap-dress/indigo.jpg"
              srcSet="/images/products/ankara-wrap-dress/indigo-400.webp 400w, /images/products/ankara-wrap-dress/indigo-800.webp 800w"
              sizes="(min-width: 640px) 256px, 45vw"
              alt=""
              width={800}
              height={1000}
              className="aspect-[4/5] w-full object-cover"
            />
            <img
              src="/images/products/barkcloth-collar-wool-blazer/piece.jpg"
              srcSet="/images/products/barkcloth-collar-wool-blazer/piece-400.webp 400w, /images/products/barkcloth-collar-wool-blazer/piece-800.webp 800w"
              sizes="(min-width: 640px) 256px, 45vw"
              alt=""
              width={800}
              height={1000}
              className="mt-12 aspect-[4/5] w-full object-cover"
            />
          </div>
        </div>
      </section>

      <section
        aria-labelledby="about-origin"
        className="mx-auto max-w-7xl px-5 py-20 sm:px-6 md:py-28"
      >
        <div className="grid gap-12 lg:grid-cols-[1fr_1.1fr] lg:gap-20">
          <div>
            <p className="eyebrow text-accent">Since 2015</p>
            <h2 id="about-origin" className="mt-3 font-display text-4xl font-medium sm:text-5xl">
              From Kampala to the World
            </h2>
            <div className="mt-6 space-y-4 leading-relaxed text-ink-soft">
              <p>
                duuka — “shop” in Luganda — was founded in 2015 as a small boutique in the heart of
                Kampala: a handful of rails, a single sewing machine and a belief that Ugandan craft
                deserved a place in the world’s wardrobes.
              </p>
              <p>
                Word spread from neighbour to neighbour, then across borders. Today duuka is an
                internationally recognised brand, yet every piece is still designed, cut and
                finished by our team at home in Kampala.
              </p>
            </div>
          </div>
          <ol className="border-l border-line">
            {MILESTONES.map((milestone) => (
              <li key={milestone.year} className="relative pb-9 pl-8 last:pb-0">
                <span
                  aria-hidden
                  className="absolute top-3.5 -left-[5px] size-[9px] rounded-full bg-gold"
                />
                <p className="font-display text-3xl text-accent">{milestone.year}</p>
                <p className="mt-1 max-w-md text-ink-soft">{milestone.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="about-values" className="border-y border-line bg-paper-2">
        <div className="mx-auto max-w-7xl px-5 py-20 sm:px-6 md:py-24">
          <p className="eyebrow text-accent">What guides us</p>
          <h2 id="about-values" className="mt-3 font-display text-4xl font-medium sm:text-5xl">
            Our Core Values
          </h2>
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ Icon, title, text }) => (
              <li key={title} className="border border-line bg-paper p-7">
                <Icon aria-hidden className="size-7 text-accent" strokeWidth={1.4} />
                <h3 className="mt-6 font-display text-2xl font-medium">{title}</h3>
                <p className="mt-3 text-sm leading-relaxed text-ink-soft">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="about-founders"
        className="mx-auto max-w-7xl px-5 py-20 sm:px-6 md:py-28"
      >
        <p className="eyebrow text-accent">The people behind duuka</p>
        <h2 id="about-founders" className="mt-3 font-display text-4xl font-medium sm:text-5xl">
          Meet The Founders
        </h2>
        <ul className="mt-10 grid gap-10 md:grid-cols-3 md:gap-8">
          {FOUNDERS.map((founder) => (
            <li key={founder.name}>
              <article aria-label={founder.name}>
                <img
                  src={founder.image}
                  alt={`Illustrated portrait of ${founder.name}`}
                  width={800}
                  height={1000}
                  loading="lazy"
                  className="aspect-[4/5] w-full bg-paper-2 object-cover"
                />
                <p className="eyebrow mt-5 text-accent">{founder.role}</p>
                <h3 className="mt-1 font-display text-3xl font-medium">{founder.name}</h3>
                <p className="mt-3 text-sm leading-relaxed text-ink-soft">{founder.bio}</p>
              </article>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="about-cta" className="border-t border-line bg-paper-2">
        <div className="mx-auto max-w-4xl px-5 py-20 text-center sm:px-6 md:py-28">
          <p className="eyebrow text-accent">The collection</p>
          <h2
            id="about-cta"
            className="mt-4 font-display text-5xl leading-tight font-medium sm:text-6xl"
          >
            Ready to Wear Your Story?
          </h2>
          <p className="mx-auto mt-5 max-w-xl text-ink-soft">
            Dresses, tailoring, shoes, bags and jewellery — made in Kampala, priced in UGX and
            delivered across Uganda.
          </p>
          <Link to="/shop" className="btn btn-primary mt-10">
            Explore Our Collections
          </Link>
        </div>
      </section>
    </>
  );
}
