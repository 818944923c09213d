// The browser's cart. A visitor's cart lives in local storage under `cart`. A signed-in shopper's
// cart lives on the server: it is read with `cart.get`, changed through the cart procedures, and
// the server's answer (priced and stocked now) is what the screens show and what local storage
// keeps as a copy for the next visit. At login a visitor's cart is merged into the server's.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHydrated } from '@tanstack/react-router';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import {
  addToCart,
  CART_TEXT,
  type Cart,
  type CartChange,
  type CartProduct,
  cartItemCount,
  cartItems,
  emptyCart,
  readSavedCart,
  removeFromCart,
  savedCartText,
  updateCartQuantity,
  withoutBought,
} from '#core/cart-rules.ts';
import type { Product } from '#core/catalogue.ts';
import { CART_OWNER_KEY, CART_STORAGE_KEY, PENDING_ADD_KEY } from '#core/settings-rules.ts';
import type { Variant } from '#core/variants.ts';
import { errorMessage } from './error-message';
import type { SessionUser } from './session';
import { toast } from './toast';
import { useTRPC } from './trpc-client';

/** What changes the cart: the same object while only the cart's contents change. */
export type CartActions = {
  /** A shopper is signed in: the cart is the server's. */
  signedIn: boolean;
  /** Adds `quantity` pieces; true when added. Shows the spec's toast either way. */
  add: (product: CartProduct, quantity?: number) => Promise<boolean>;
  /**
   * Adds like `add` (the same rules, the same procedure) without a toast, for a cart link's lines
   * (issue 37), whose page says what happened to each: null when added, else the refusal's text.
   */
  addQuietly: (product: CartProduct, quantity: number) => Promise<string | null>;
  setQuantity: (variantId: number, quantity: number) => Promise<boolean>;
  remove: (variantId: number) => Promise<boolean>;
  /**
   * After an order of `bought`, without a toast: a visitor's cart empties; a shopper's server
   * cart lost those lines in the order's own write, so only this copy follows it.
   */
  ordered: (bought: readonly { variantId: number; quantity: number }[]) => Promise<void>;
  /** Remembers a logged-out add, completed by `afterLogin`. */
  rememberPendingAdd: (product: CartProduct, quantity: number) => void;
  /** At login: merges a visitor's cart into the server's, then completes a remembered add. */
  afterLogin: (userId: string) => Promise<{ pendingAdd: boolean }>;
};

export type CartState = CartActions & {
  cart: Cart;
  itemCount: number;
  /** False while the cart cannot be known yet (server render of a visitor, first server read). */
  ready: boolean;
};

const CartContext = createContext<CartState | null>(null);
const CartActionsContext = createContext<CartActions | null>(null);

/** The cart and what changes it: for screens that show the cart. */
export function useCart(): CartState {
  const state = useContext(CartContext);
  if (!state) throw new Error('useCart needs <CartProvider>');
  return state;
}

/**
 * Only what changes the cart: a component that never shows the cart (an Add to Cart button on
 * each of a page's cards) is not rendered again when the cart's contents change, nor when the
 * browser's copy replaces the empty server-rendered cart at hydration.
 */
export function useCartActions(): CartActions {
  const actions = useContext(CartActionsContext);
  if (!actions) throw new Error('useCartActions needs <CartProvider>');
  return actions;
}

/**
 * The piece to add: the chosen variant of a product, or a product's only variant. Null when a
 * size or colour is still to be chosen.
 */
export function cartProduct(product: Product, variant?: Variant | null): CartProduct | null {
  const variantId = variant?.id ?? product.variantId;
  if (variantId === null) return null;
  return {
    productId: product.id,
    variantId,
    label: variant?.label ?? '',
    name: product.name,
    price: variant?.price ?? product.price,
    image: product.image_url,
    ...(product.imageWidths ? { imageWidths: product.imageWidths } : {}),
    stock: Math.max(0, variant ? variant.available : product.stock),
    slug: product.slug,
  };
}

// Local storage, as a tiny external store: every tab sees the others' changes.
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}
function storageGet(storage: 'local' | 'session', key: string): string | null {
  try {
    return (storage === 'local' ? localStorage : sessionStorage).getItem(key);
  } catch {
    return null;
  }
}
function storageSet(storage: 'local' | 'session', key: string, value: string | null) {
  try {
    const store = storage === 'local' ? localStorage : sessionStorage;
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    // Storage full or blocked: the cart still works for this page.
  }
}
const readLocalText = () => storageGet('local', CART_STORAGE_KEY);
const readLocalCart = () => readSavedCart(readLocalText());
function writeLocalCart(cart: Cart | null, owner: string | null) {
  storageSet('local', CART_STORAGE_KEY, cart ? savedCartText(cart) : null);
  storageSet('local', CART_OWNER_KEY, owner);
  for (const listener of listeners) listener();
}

function takePendingAdd(): { product: CartProduct; quantity: number } | null {
  const saved = storageGet('session', PENDING_ADD_KEY);
  storageSet('session', PENDING_ADD_KEY, null);
  if (!saved) return null;
  // Checked like a saved cart: anything that is not exactly one cart line is dropped.
  let parsed: unknown;
  try {
    parsed = JSON.parse(saved);
  } catch {
    return null;
  }
  const [line] = readSavedCart(JSON.stringify({ productsInCart: [parsed] })).productsInCart;
  if (!line) return null;
  const { quantity, ...product } = line;
  return { product, quantity };
}

const NO_CART: Cart = emptyCart();

/** The change's toast, or its refusal's: true when the change was made. */
function announced(change: CartChange): boolean {
  if (change.ok) toast.success(change.toast);
  else toast.error(change.message);
  return change.ok;
}

/**
 * Who is signed in, read straight from the query cache (undefined while unknown). A query
 * observer would keep showing a session query that was removed from the cache (sign-out and
 * login replace it) until something re-renders it; the cart must follow at once.
 */
function useSignedInId(): string | null | undefined {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  const read = useMemo(() => {
    const key = trpc.account.session.queryKey();
    return () => {
      const user = queryClient.getQueryData<SessionUser | null>(key);
      return user === undefined ? undefined : (user?.id ?? null);
    };
  }, [queryClient, trpc]);
  const subscribe = useCallback(
    (listener: () => void) => queryClient.getQueryCache().subscribe(listener),
    [queryClient],
  );
  return useSyncExternalStore(subscribe, read, read);
}

export function CartProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const signedIn = useSignedInId();
  const sessionPending = signedIn === undefined;
  const userId = signedIn ?? null;

  const localText = useSyncExternalStore(subscribe, readLocalText, () => null);
  const localCart = useMemo(() => readSavedCart(localText), [localText]);
  const cartKey = useMemo(() => trpc.cart.get.queryKey(), [trpc]);
  const serverCart = useQuery({ ...trpc.cart.get.queryOptions(), enabled: userId !== null });

  const { mutateAsync: sendAdd } = useMutation(trpc.cart.add.mutationOptions());
  const { mutateAsync: sendUpdate } = useMutation(trpc.cart.update.mutationOptions());
  const { mutateAsync: sendRemove } = useMutation(trpc.cart.remove.mutationOptions());
  const { mutateAsync: sendMerge } = useMutation(trpc.cart.merge.mutationOptions());

  // Server changes run one after another, so answers arrive in the order the shopper acted; an
  // answer is shown only when no later change is waiting (no flicker under quick clicks).
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const waiting = useRef(0);
  const syncedFor = useRef<string | null>(null);

  const serverChange = useCallback(
    (run: () => Promise<Cart>): Promise<Cart> => {
      waiting.current += 1;
      const step = queue.current.then(run);
      queue.current = step.catch(() => undefined);
      return step
        .then(async (answer) => {
          // A cart.get still on its way (e.g. fired by the login itself) carries an older cart:
          // drop it, so it cannot land after this answer and undo it.
          await queryClient.cancelQueries({ queryKey: cartKey });
          if (waiting.current === 1) queryClient.setQueryData(cartKey, answer);
          return answer;
        })
        .catch((error) => {
          // The optimistic copy may be wrong now: read the truth again.
          void queryClient.invalidateQueries({ queryKey: cartKey });
          throw error;
        })
        .finally(() => {
          waiting.current -= 1;
        });
    },
    [queryClient, cartKey],
  );

  /** The cart a change starts from: the newest copy, including changes still on their way. */
  const currentCart = useCallback(
    (onServer: boolean) =>
      onServer ? (queryClient.getQueryData<Cart>(cartKey) ?? readLocalCart()) : readLocalCart(),
    [queryClient, cartKey],
  );

  /** An add to the server's cart: its toast, or the refusal's text (none shown here). */
  const addSignedIn = useCallback(
    async (product: CartProduct, quantity: number): Promise<CartChange> => {
      let current: Cart;
      try {
        current = await queryClient.ensureQueryData(trpc.cart.get.queryOptions());
      } catch (error) {
        return { ok: false, message: errorMessage(error, CART_TEXT.addFailed) };
      }
      const present = current.productsInCart.find((l) => l.variantId === product.variantId);
      // The server's stock of a line in the cart is the fresher reading.
      const change = addToCart(
        current,
        { ...product, stock: present?.stock ?? product.stock },
        quantity,
      );
      if (!change.ok) return change;
      try {
        // The N pieces in one call: the server adds them all or, past the stock, none.
        await serverChange(() => sendAdd({ variantId: product.variantId, quantity }));
      } catch (error) {
        return { ok: false, message: errorMessage(error, CART_TEXT.addFailed) };
      }
      return change;
    },
    [queryClient, trpc, serverChange, sendAdd],
  );

  /** An add to the shopper's cart (the server's) or the visitor's (this browser's), unannounced. */
  const addPiece = useCallback(
    async (product: CartProduct, quantity: number): Promise<CartChange> => {
      if (userId) return addSignedIn(product, quantity);
      const change = addToCart(readLocalCart(), product, quantity);
      if (change.ok) writeLocalCart(change.cart, null);
      return change;
    },
    [userId, addSignedIn],
  );

  const add = useCallback(
    async (product: CartProduct, quantity = 1): Promise<boolean> =>
      announced(await addPiece(product, quantity)),
    [addPiece],
  );

  const addQuietly = useCallback(
    async (product: CartProduct, quantity: number): Promise<string | null> => {
      const change = await addPiece(product, quantity);
      return change.ok ? null : change.message;
    },
    [addPiece],
  );

  /**
   * A change worked out by the cart rules: a visitor's is saved at once; a shopper's shows at once
   * and goes to the server, whose answer (or refusal) has the last word.
   */
  const commit = useCallback(
    async (change: CartChange, send: () => Promise<Cart>, failed: string): Promise<boolean> => {
      if (!change.ok) {
        toast.error(change.message);
        return false;
      }
      if (!userId) {
        writeLocalCart(change.cart, null);
        toast.success(change.toast);
        return true;
      }
      queryClient.setQueryData(cartKey, change.cart);
      try {
        await serverChange(send);
      } catch (error) {
        toast.error(errorMessage(error, failed));
        return false;
      }
      toast.success(change.toast);
      return true;
    },
    [userId, queryClient, cartKey, serverChange],
  );

  const setQuantity = useCallback(
    (variantId: number, quantity: number): Promise<boolean> =>
      commit(
        updateCartQuantity(currentCart(!!userId), variantId, quantity),
        () => sendUpdate({ variantId, quantity }),
        CART_TEXT.updateFailed,
      ),
    [userId, currentCart, commit, sendUpdate],
  );

  const remove = useCallback(
    (variantId: number): Promise<boolean> =>
      commit(
        removeFromCart(currentCart(!!userId), variantId),
        () => sendRemove({ variantId }),
        CART_TEXT.removeFailed,
      ),
    [userId, currentCart, commit, sendRemove],
  );

  const ordered = useCallback(
    async (bought: readonly { variantId: number; quantity: number }[]): Promise<void> => {
      if (!userId) {
        writeLocalCart(emptyCart(), null);
        return;
      }
      // A cart.get on its way read the cart before the order: it must not land after this.
      await queryClient.cancelQueries({ queryKey: cartKey });
      queryClient.setQueryData<Cart>(cartKey, (cart) => cart && withoutBought(cart, bought));
    },
    [userId, queryClient, cartKey],
  );

  /** A visitor's own cart joins the shopper's server cart once they are signed in. */
  const syncWithServer = useCallback(
    (id: string): Promise<unknown> => {
      if (syncedFor.current === id) return queue.current;
      syncedFor.current = id;
      const visitorCart = storageGet('local', CART_OWNER_KEY) === null ? readLocalCart() : null;
      if (!visitorCart || visitorCart.productsInCart.length === 0) return queue.current;
      return serverChange(() => sendMerge({ items: cartItems(visitorCart) }))
        .then((cart) => writeLocalCart(cart, id))
        .catch((error) => {
          syncedFor.current = null;
          toast.error(errorMessage(error, CART_TEXT.addFailed));
        });
    },
    [serverChange, sendMerge],
  );

  const afterLogin = useCallback(
    async (id: string) => {
      await syncWithServer(id);
      const pending = takePendingAdd();
      if (pending) announced(await addSignedIn(pending.product, pending.quantity));
      return { pendingAdd: pending !== null };
    },
    [syncWithServer, addSignedIn],
  );

  const rememberPendingAdd = useCallback((product: CartProduct, quantity: number) => {
    storageSet('session', PENDING_ADD_KEY, JSON.stringify({ ...product, quantity }));
  }, []);

  // Signing in merges a visitor's cart; signing out leaves the shopper's cart on the server and
  // empties this browser's copy of it. Another person's cart never stays in the cache.
  const cachedFor = useRef(userId);
  useEffect(() => {
    if (!hydrated || sessionPending) return;
    if (cachedFor.current !== userId) {
      cachedFor.current = userId;
      queryClient.removeQueries({ queryKey: trpc.cart.pathKey() });
    }
    if (userId) {
      void syncWithServer(userId);
      return;
    }
    syncedFor.current = null;
    if (storageGet('local', CART_OWNER_KEY) !== null) writeLocalCart(null, null);
  }, [hydrated, sessionPending, userId, syncWithServer, queryClient, trpc]);

  // The server's answer is also kept locally: the next visit shows it before the first read.
  useEffect(() => {
    if (userId && serverCart.data) writeLocalCart(serverCart.data, userId);
  }, [userId, serverCart.data]);

  const ownCopy = hydrated && storageGet('local', CART_OWNER_KEY) === userId;
  const cart = userId
    ? (serverCart.data ?? (ownCopy ? localCart : NO_CART))
    : hydrated
      ? localCart
      : NO_CART;
  const ready = userId ? serverCart.data !== undefined || ownCopy : hydrated;

  const actions = useMemo<CartActions>(
    () => ({
      signedIn: userId !== null,
      add,
      addQuietly,
      setQuantity,
      remove,
      ordered,
      rememberPendingAdd,
      afterLogin,
    }),
    [userId, add, addQuietly, setQuantity, remove, ordered, rememberPendingAdd, afterLogin],
  );
  const state = useMemo<CartState>(
    () => ({ ...actions, cart, itemCount: cartItemCount(cart), ready }),
    [actions, cart, ready],
  );
  return (
    <CartActionsContext.Provider value={actions}>
      <CartContext.Provider value={state}>{children}</CartContext.Provider>
    </CartActionsContext.Provider>
  );
}
