import { useNavigate } from '@tanstack/react-router';
import { ShoppingBag } from 'lucide-react';
import type { Product } from '#core/catalogue.ts';

/**
 * Add to cart. Until the cart lands this follows the spec's logged-out rule: go to /login.
 * Disabled and titled Out of Stock at 0.
 */
export function AddToCartButton({
  product,
  quantity = 1,
  variant = 'primary',
  className = '',
}: {
  product: Product;
  quantity?: number;
  variant?: 'primary' | 'outline';
  className?: string;
}) {
  const navigate = useNavigate();
  const soldOut = product.stock <= 0;
  return (
    <button
      type="button"
      className={`btn btn-${variant} ${className}`}
      disabled={soldOut}
      title={soldOut ? 'Out of Stock' : undefined}
      onClick={() => navigate({ to: '/login' })}
    >
      {soldOut ? (
        'Out of Stock'
      ) : (
        <>
          <ShoppingBag size={16} aria-hidden />
          {quantity > 1 ? `Add ${quantity} to Cart` : 'Add to Cart'}
        </>
      )}
    </button>
  );
}
