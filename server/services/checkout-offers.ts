// Offers, gift cards and credit at checkout (issue 35, decision 0081): the reads the preview and
// the checkout's first batch add, and the engine's answer (core/offers.ts) on what they read. The
// checkout's one write (checkout-service.ts orderStatement) then counts what this gave.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { giftCardHash } from '#core/gift-cards.ts';
import {
  type CodeRefused,
  type GivenOffer,
  normalCode,
  type Offer,
  type OfferLine,
  type OffersAnswer,
  offersFor,
  type ShopperFacts,
  spendValue,
  splitCodes,
  type ValueSpend,
} from '#core/offers.ts';
import type { Db } from '#db/client.ts';
import { orderOffers, orders, promotions, valueAccounts } from '#db/schema/index.ts';
import { liveOffersQuery, toOffer } from './offers-service.ts';

/** The codes sorted, and the hashes of the gift cards among them (Web Crypto: before the read). */
export async function askedCodes(codes: readonly string[]) {
  const split = splitCodes(codes);
  const hashes = await Promise.all(split.giftCards.map((card) => giftCardHash(card.typed)));
  return { ...split, hashes };
}
export type AskedCodes = Awaited<ReturnType<typeof askedCodes>>;

const nothing = sql`false`;

/**
 * The reads offers need, unsent, for the caller's batch: the live offers, the offers the codes
 * name (in any state: to say "ended" or "starts on …"), the shopper's counted uses with their
 * slots, whether she has ordered before, the gift cards typed (issued ones only) and her credit.
 * `notOrder`: the order being placed is not "an order before" (none exists yet; said for clarity).
 */
export function offerQueries(db: Db, asked: AskedCodes, shopperId: string | null) {
  const codes = asked.discountCodes.map((c) => c.code.toLowerCase());
  return [
    liveOffersQuery(db),
    db
      .select()
      .from(promotions)
      .where(codes.length > 0 ? inArray(sql`lower(${promotions.code})`, codes) : nothing),
    db
      .select({ promotionId: orderOffers.promotionId, useNumber: orderOffers.useNumber })
      .from(orderOffers)
      .where(
        shopperId === null
          ? nothing
          : and(eq(orderOffers.shopper, shopperId), eq(orderOffers.counted, true)),
      ),
    db
      .select({ id: orders.id })
      .from(orders)
      .where(
        shopperId === null
          ? nothing
          : and(eq(orders.customerId, shopperId), sql`${orders.status} <> 'cancelled'`),
      )
      .limit(1),
    db
      .select({
        id: valueAccounts.id,
        hash: valueAccounts.codeHash,
        balance: valueAccounts.balance,
      })
      .from(valueAccounts)
      .where(
        asked.hashes.length > 0
          ? and(
              eq(valueAccounts.kind, 'gift_card'),
              isNotNull(valueAccounts.issuedAt),
              inArray(valueAccounts.codeHash, asked.hashes),
            )
          : nothing,
      ),
    db
      .select({ id: valueAccounts.id, balance: valueAccounts.balance })
      .from(valueAccounts)
      .where(
        shopperId === null
          ? nothing
          : and(eq(valueAccounts.kind, 'store_credit'), eq(valueAccounts.userId, shopperId)),
      ),
  ] as const;
}

type Rows<Q> = Q extends PromiseLike<infer R> ? R : never;
type RowsOf<T extends readonly unknown[]> = { -readonly [K in keyof T]: Rows<T[K]> };
/** What offerQueries answered, in its order. */
export type OfferRows = RowsOf<ReturnType<typeof offerQueries>>;

/** What a checkout is given on what was read: offers, gift cards, credit, and the totals. */
export type Priced = {
  offers: OffersAnswer;
  value: ValueSpend;
  /** Every code that gives nothing (offers' then gift cards'), notes among them. */
  refused: CodeRefused[];
  shopper: ShopperFacts;
  /** Each per-shopper-limited offer's slot for this order (its smallest free use number). */
  slots: ReadonlyMap<number, number>;
  subtotal: number;
  /** The fee before offers, as read: the write checks it is still the fee. */
  feeBefore: number;
  deliveryFee: number;
  discount: number;
  credit: number;
  total: number;
};

/** The slots a shopper's counted uses hold, by offer. */
function slotsOf(uses: readonly { promotionId: number; useNumber: number | null }[]) {
  const counts = new Map<number, number>();
  const held = new Map<number, Set<number>>();
  for (const use of uses) {
    counts.set(use.promotionId, (counts.get(use.promotionId) ?? 0) + 1);
    if (use.useNumber !== null) {
      const slots = held.get(use.promotionId) ?? new Set<number>();
      slots.add(use.useNumber);
      held.set(use.promotionId, slots);
    }
  }
  return { counts, held };
}

/** The smallest use number in 1..limit this shopper does not hold (the write's unique slot). */
function freeSlot(held: ReadonlySet<number> | undefined, limit: number): number | null {
  for (let n = 1; n <= limit; n++) if (!held?.has(n)) return n;
  return null;
}

/**
 * The engine on what was read. `useCredit`: the shopper asked to spend her store credit too
 * (after any gift card). A visitor has none.
 */
export function priceWithOffers(input: {
  lines: readonly OfferLine[];
  rows: OfferRows;
  asked: AskedCodes;
  codes: readonly string[];
  shopperId: string | null;
  /** The fee for this cart before offers (the option's, or 0 above the free threshold). */
  feeBefore: number;
  useCredit: boolean;
  now?: Date;
}): Priced {
  const [live, coded, uses, ordered, cards, [credit]] = input.rows;
  const offers = new Map<number, Offer>();
  for (const row of [...live, ...coded]) offers.set(row.id, toOffer(row));
  const { counts, held } = slotsOf(uses);
  // Each per-shopper-limited offer's slot for this order; none free (slots held by orders
  // counted before the limit was lowered) is "used already", whatever the count says.
  const slots = new Map<number, number>();
  for (const offer of offers.values()) {
    if (offer.perShopperLimit === null) continue;
    const slot = freeSlot(held.get(offer.id), offer.perShopperLimit);
    if (slot === null)
      counts.set(offer.id, Math.max(counts.get(offer.id) ?? 0, offer.perShopperLimit));
    else slots.set(offer.id, slot);
  }
  const shopper: ShopperFacts = {
    id: input.shopperId,
    uses: counts,
    ordered: ordered.length > 0,
  };
  const answer = offersFor({
    lines: input.lines,
    offers: [...offers.values()],
    codes: input.codes,
    deliveryFee: input.feeBefore,
    now: input.now ?? new Date(),
    shopper,
  });
  const refused = [...answer.refused];
  const due = answer.subtotal + answer.deliveryFee - answer.discount;
  const byHash = new Map(cards.map((card) => [card.hash, card]));
  const value = spendValue(
    due,
    input.asked.giftCards.map((card, index) => {
      const found = byHash.get(input.asked.hashes[index] ?? '');
      return {
        typed: card.typed,
        account: found ? { id: found.id, balance: found.balance } : null,
      };
    }),
    input.useCredit && credit ? { id: credit.id, balance: credit.balance } : null,
  );
  refused.push(...value.refused);
  return {
    offers: answer,
    value,
    refused,
    shopper,
    slots,
    subtotal: answer.subtotal,
    feeBefore: input.feeBefore,
    deliveryFee: answer.deliveryFee,
    discount: answer.discount,
    credit: value.credit,
    total: Math.max(0, due - value.credit),
  };
}

/** Whether anything was given or spent: only then does the write check prices and offers. */
export const givesAnything = (priced: Priced) =>
  priced.offers.given.length > 0 || priced.value.spends.length > 0;

/** The offer a lost race on its use limit names: the given offer with the fewest uses left. */
export function usedUpOffer(priced: Priced): GivenOffer | null {
  const limited = priced.offers.given.filter((g) => g.offer.usageLimit !== null);
  limited.sort(
    (a, b) => (a.offer.usageLimit ?? 0) - a.offer.used - ((b.offer.usageLimit ?? 0) - b.offer.used),
  );
  return limited[0] ?? null;
}

/** The code as the shopper typed it for this offer, else its code, else its name. */
export function typedFor(offer: GivenOffer, codes: readonly string[]): string {
  const typed = codes.find((c) => offer.code !== null && normalCode(c) === normalCode(offer.code));
  return typed?.trim() ?? offer.code ?? offer.name;
}

/**
 * What the checkout's one write counts and spends (orderStatement): the totals as the engine
 * made them from what the read saw, the offers at the versions read with the shopper's slot,
 * and each balance spent. The write checks the subtotal and the fee are still those read, so
 * the engine and the write agree, or it places nothing.
 */
export type OffersToWrite = {
  /** order_offers.shopper: the account's id. */
  shopper: string | null;
  subtotal: number;
  /** The fee before offers, as read. */
  fee: number;
  discount: number;
  freeDelivery: boolean;
  credit: number;
  given: {
    promotionId: number;
    version: number;
    code: string | null;
    name: string;
    amount: number;
    useNumber: number | null;
  }[];
  spends: { accountId: number; amount: number }[];
};

export function offersToWrite(priced: Priced, shopper: string | null): OffersToWrite {
  return {
    shopper,
    subtotal: priced.subtotal,
    fee: priced.feeBefore,
    discount: priced.discount,
    freeDelivery: priced.offers.given.some((g) => g.offer.kind === 'free_delivery'),
    credit: priced.credit,
    given: priced.offers.given.map((g) => ({
      promotionId: g.offer.id,
      version: g.offer.version,
      code: g.offer.code,
      name: g.offer.name,
      amount: g.amount,
      useNumber: priced.slots.get(g.offer.id) ?? null,
    })),
    spends: priced.value.spends,
  };
}
