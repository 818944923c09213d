// The products an assistant's reply names, as compact cards under it: picture, name, price (a
// "from" price, a sale struck through), the size asked about and its stock, and a link to the
// piece (on that variant when one was asked about). Each card is one link: one tab stop, read
// whole by a screen reader. Loaded with the conversation, not with the page.
import { useRouter } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';
import { type MouseEvent, useState } from 'react';
import { Price } from '#app/components/Price.tsx';
import { PLACEHOLDER_IMAGE } from '#core/catalogue.ts';
import { type ChatProductCard, cardHref } from '#core/chat.ts';
import { pictureSources } from '#core/pictures.ts';

/** Shown 56 px wide (112 px on a sharp screen): the smallest stored copy is plenty. */
const THUMB_SIZES = '56px';
const THUMB_MAX_WIDTH = 400;

function Thumbnail({ image }: { image: ChatProductCard['image'] }) {
  const [broken, setBroken] = useState(!image);
  const frame = 'aspect-[4/5] w-14 shrink-0 bg-paper-2 object-cover';
  if (broken || !image) {
    return <img src={PLACEHOLDER_IMAGE} alt="" width={56} height={70} className={frame} />;
  }
  const small = image.widths.filter((w) => w <= THUMB_MAX_WIDTH);
  const { src, webpSrcSet } = pictureSources({
    url: image.url,
    widths: small.length > 0 ? small : image.widths.slice(0, 1),
  });
  return (
    // A block of its own: with `display: contents` the <source> became a flex item and took a gap.
    <picture className="block w-14 shrink-0">
      {webpSrcSet && <source type="image/webp" srcSet={webpSrcSet} sizes={THUMB_SIZES} />}
      {/* The card's text names the piece: the picture adds nothing for a screen reader. */}
      <img
        src={src}
        alt=""
        width={56}
        height={70}
        loading="lazy"
        decoding="async"
        onError={() => setBroken(true)}
        className={frame}
      />
    </picture>
  );
}

export function ProductCards({
  cards,
  onOpen,
}: {
  cards: readonly ChatProductCard[];
  /** Called when a card is followed inside the shop (the panel makes way on a phone). */
  onOpen?: () => void;
}) {
  const router = useRouter();
  function follow(event: MouseEvent<HTMLAnchorElement>, href: string) {
    // A new tab or window stays the browser's; a plain click moves within the shop, keeping the
    // chat (and a reply on its way) alive.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    onOpen?.();
    void router.navigate({ href });
  }
  // One card sits under the reply; several scroll sideways in one row (the next one peeking), so
  // a reply with four pieces does not push the conversation out of the panel. Each card is
  // `relative`: its screen-reader-only text (absolutely placed) would otherwise belong to the
  // panel, escape the row's clipping and make the whole panel scroll sideways.
  const row = cards.length > 1;
  return (
    <ul
      aria-label="Products in this reply"
      className={
        row
          ? 'mt-2 flex w-full snap-x snap-mandatory scroll-px-0.5 gap-2 overflow-x-auto px-0.5 pt-0.5 pb-2 [scrollbar-width:thin]'
          : 'mt-2 grid w-[92%] grid-cols-1 p-0.5'
      }
    >
      {cards.map((card) => {
        const href = cardHref(card);
        const sale = card.compareAtPrice !== null && card.compareAtPrice > card.price;
        const soldOut = card.availability === 'Sold out';
        return (
          <li key={card.id} className={row ? 'w-[15.5rem] shrink-0 snap-start' : undefined}>
            <a
              href={href}
              onClick={(event) => follow(event, href)}
              data-testid="chat-product-card"
              className="group relative flex h-full items-center gap-3 border border-line bg-paper p-1.5 pr-2 transition-colors hover:border-ink focus-visible:border-ink"
            >
              <Thumbnail image={card.image} />
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="line-clamp-2 text-[0.8rem] font-semibold leading-[1.15rem] group-hover:underline group-hover:underline-offset-2">
                  {card.name}
                </span>
                <span className="text-xs text-ink">
                  {card.priceTo > card.price && <span className="text-ink-soft">from </span>}
                  <Price amount={card.price} />
                  {sale && (
                    <>
                      {' '}
                      <span className="sr-only">, was </span>
                      <s className="text-ink-soft">
                        <Price amount={card.compareAtPrice ?? 0} />
                      </s>
                    </>
                  )}
                </span>
                <span
                  className={`truncate text-[0.7rem] ${soldOut ? 'text-ink-soft' : 'text-gold'}`}
                >
                  <span className="sr-only">, </span>
                  {card.variantLabel && (
                    <>
                      <span className="font-semibold tracking-wide">{card.variantLabel}</span>
                      <span aria-hidden> · </span>
                      <span className="sr-only">: </span>
                    </>
                  )}
                  {card.availability}
                </span>
              </span>
              <ChevronRight
                size={16}
                aria-hidden
                className="shrink-0 text-ink-soft transition-transform group-hover:translate-x-0.5 group-hover:text-ink"
              />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
