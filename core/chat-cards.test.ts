import { describe, expect, it } from 'vitest';
import {
  CHAT_CARDS_MAX,
  type ChatProductCard,
  cardHref,
  cardsForReply,
  isCardsPart,
  storedCards,
} from './chat.ts';

const card = (id: number, name: string, extra: Partial<ChatProductCard> = {}): ChatProductCard => ({
  id,
  slug: name.toLowerCase().replace(/\W+/g, '-'),
  name,
  price: 50_000,
  priceTo: 50_000,
  compareAtPrice: null,
  image: null,
  variantId: null,
  variantLabel: null,
  availability: 'In stock',
  ...extra,
});

describe('product cards under a reply', () => {
  const found = [
    card(1, 'Ankara Wrap Dress'),
    card(2, 'Kitenge Button-Front Shirt Dress'),
    card(3, 'Leather Card Wallet'),
  ];

  it('shows the found products the reply names, in the order it names them', () => {
    const text =
      'Try the kitenge button-front shirt dress (UGX 98,000) or the Ankara Wrap Dress, UGX 145,000.';
    expect(cardsForReply(text, found).map((c) => c.id)).toEqual([2, 1]);
  });

  it('never makes a card of a name no tool found, nor of a part of a name', () => {
    expect(cardsForReply('The Imaginary Gold Gown is in stock.', found)).toEqual([]);
    expect(cardsForReply('Our Ankara Wrap collection', found)).toEqual([]);
    expect(cardsForReply('', found)).toEqual([]);
  });

  it('always shows the piece whose availability was asked, first, and at most four cards', () => {
    expect(
      cardsForReply('The leather card wallet is in stock.', found, [1]).map((c) => c.id),
    ).toEqual([1, 3]);
    const many = Array.from({ length: 8 }, (_, i) => card(i + 10, `Piece Number ${i}`));
    const all = many.map((c) => c.name).join(', ');
    expect(cardsForReply(all, many)).toHaveLength(CHAT_CARDS_MAX);
  });

  it('links to the piece, on the variant asked about', () => {
    expect(cardHref({ slug: 'ankara-wrap-dress', variantId: null })).toBe(
      '/products/ankara-wrap-dress',
    );
    expect(cardHref({ slug: 'ankara-wrap-dress', variantId: 42 })).toBe(
      '/products/ankara-wrap-dress?variant=42',
    );
    expect(cardHref({ slug: 'a/b?c', variantId: null })).toBe('/products/a%2Fb%3Fc');
  });

  it('reads stored cards defensively and recognises the stream part', () => {
    expect(storedCards({ model: 'x' })).toBeUndefined();
    expect(storedCards({ products: 'nope' })).toBeUndefined();
    expect(storedCards({ products: [{ id: '1' }, null, found[0]] })).toEqual([found[0]]);
    expect(storedCards(null)).toBeUndefined();
    expect(isCardsPart({ type: 'data-products', data: [] })).toBe(true);
    expect(isCardsPart('text')).toBe(false);
    expect(isCardsPart({ type: 'data-other', data: [] })).toBe(false);
  });
});
