import type { Product } from '#core/catalogue.ts';
import { ProductCard } from './ProductCard';

/** A grid of cards. A page's results grid is its top: its first row loads at once. A grid
 * further down (a product page's "You may also like") loads as the shopper nears it. */
export function ProductGrid({
  products,
  label,
  below = false,
}: {
  products: Product[];
  label: string;
  below?: boolean;
}) {
  return (
    <ul
      aria-label={label}
      className="grid grid-cols-2 gap-x-4 gap-y-10 sm:grid-cols-3 lg:grid-cols-4"
    >
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={!below && index < 4} />
        </li>
      ))}
    </ul>
  );
}
