import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { cartProduct, useCartActions } from '#app/cart-store.tsx';
import { toast } from '#app/toast.tsx';
import type { Product } from '#core/catalogue.ts';
import type { Variant } from '#core/variants.ts';
import { VARIANT_TEXT } from '#core/variants.ts';

/**
 * Add to cart (spec: storefront §4). Logged out: the wanted product and quantity are remembered
 * and the shopper goes to /login, where the add completes. Logged in: add, then /cart; a refused
 * add shows its toast and stays. Disabled and titled Out of Stock at 0.
 */
export function AddToCartButton({
  product,
  quantity = 1,
  variant = 'primary',
  className = '',
  showQuantity = false,
  chosen,
  onMissingChoice,
  opensDialog = false,
}: {
  product: Product;
  /** Instead of the toast when a size or colour is still to be chosen: the page shows it by the
   * group; a card opens its dialog to choose. */
  onMissingChoice?: () => void;
  /** A card of a piece sold in sizes: the button opens the product dialog to choose one. */
  opensDialog?: boolean;
  /** The size and colour chosen, for a product sold in several. */
  chosen?: Variant | null;
  quantity?: number;
  /** 'Add N to Cart' even at 1 (the product dialog, where a quantity was chosen). */
  showQuantity?: boolean;
  variant?: 'primary' | 'outline';
  className?: string;
}) {
  const navigate = useNavigate();
  const cart = useCartActions();
  const [adding, setAdding] = useState(false);
  const soldOut = chosen ? chosen.available <= 0 : product.stock <= 0;

  async function addToCart() {
    const piece = cartProduct(product, chosen);
    if (!piece) {
      if (onMissingChoice) onMissingChoice();
      else toast.error(VARIANT_TEXT.chooseSize);
      return;
    }
    if (!cart.signedIn) {
      cart.rememberPendingAdd(piece, quantity);
      await navigate({ to: '/login' });
      return;
    }
    setAdding(true);
    try {
      if (await cart.add(piece, quantity)) await navigate({ to: '/cart' });
    } finally {
      setAdding(false);
    }
  }

  return (
    <button
      type="button"
      className={`btn btn-${variant} ${soldOut ? '' : 'btn-bag'} ${className}`}
      disabled={soldOut || adding}
      aria-busy={adding || undefined}
      aria-haspopup={opensDialog && !soldOut ? 'dialog' : undefined}
      title={soldOut ? 'Out of Stock' : undefined}
      onClick={addToCart}
    >
      {soldOut
        ? 'Out of Stock'
        : showQuantity || quantity > 1
          ? `Add ${quantity} to Cart`
          : 'Add to Cart'}
    </button>
  );
}
