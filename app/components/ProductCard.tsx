import { lowStockBadge, type Product } from '../../core/catalogue.ts';
import { formatUGX } from '../../core/money.ts';
import { ProductImage } from './ProductImage';

export function ProductCard({ product }: { product: Product }) {
  const badge = lowStockBadge(product.stock);
  return (
    <article className="group relative flex flex-col" data-testid="product-card">
      <div className="relative overflow-hidden">
        <ProductImage
          src={product.image_url}
          alt={product.name}
          className="transition-transform duration-500 group-hover:scale-[1.03]"
        />
        {badge && (
          <span className="absolute left-3 top-3 bg-paper px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-accent">
            {badge}
          </span>
        )}
        {product.stock === 0 && (
          <span className="absolute left-3 top-3 bg-ink px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-paper">
            Out of Stock
          </span>
        )}
      </div>
      <h3 className="mt-3 line-clamp-1 text-sm font-medium">{product.name}</h3>
      <p className="mt-1 text-sm text-ink-soft">{formatUGX(product.price)}</p>
    </article>
  );
}
