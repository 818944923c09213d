import { describe, expect, it } from 'vitest';
import { pictureSources } from './pictures.ts';

const demo = { url: '/products/dress.jpg', widths: [1200, 400, 800] };
const uploaded = { url: '/photos/products/1/a.jpg', widths: [400, 800, 1200] };

describe('a picture’s sources', () => {
  it('offers every width, smallest first', () => {
    expect(pictureSources(demo)).toEqual({
      src: '/products/dress.jpg',
      webpSrcSet:
        '/products/dress-400.webp 400w, /products/dress-800.webp 800w, /products/dress-1200.webp 1200w',
    });
    expect(pictureSources(uploaded).src).toBe('/photos/products/1/a.jpg?w=800');
  });

  it('saving data, offers the 400 px copy only', () => {
    expect(pictureSources(demo, true)).toEqual({
      src: '/products/dress.jpg',
      webpSrcSet: '/products/dress-400.webp 400w',
    });
    expect(pictureSources(uploaded, true)).toEqual({
      src: '/photos/products/1/a.jpg?w=400',
      webpSrcSet: '/photos/products/1/a.jpg?w=400 400w',
    });
  });

  it('saving data, a picture without a small copy offers its smallest; one without copies its URL', () => {
    expect(
      pictureSources({ url: '/products/coat.jpg', widths: [1200, 800] }, true).webpSrcSet,
    ).toBe('/products/coat-800.webp 800w');
    expect(pictureSources({ url: '/art/hero.svg', widths: [] }, true)).toEqual({
      src: '/art/hero.svg',
      webpSrcSet: null,
    });
  });
});
