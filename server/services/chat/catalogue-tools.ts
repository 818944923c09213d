// What the assistant's catalogue tools read and answer (issue 21, "The assistant knows sizes"):
// products with their sizes, colours and stock per variant, read in one statement, told to the
// model compactly (its answers cost tokens), and the same products as cards for the widget.
import { and, asc, desc, ilike, or, type SQL, sql } from 'drizzle-orm';
import { lowStockBadge, saleOf, sizesLeftHint } from '#core/catalogue.ts';
import { type ChatProductCard, keywords } from '#core/chat.ts';
import { formatUGX } from '#core/money.ts';
import { picturesFor } from '#core/pictures.ts';
import { COLOUR, type ProductOption, SIZE, type VariantOptions } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { products } from '#db/schema/index.ts';
import { likePattern, onSale } from '../catalogue-service.ts';

/** In a search's size list, a variant this low is named with its count ("M: Indigo 2 left");
 * colours sold out in a size still stocked are named after "no" ("XXL: no Terracotta"). */
export const FEW_LEFT = 3;
/** Products one search tells the model about (spec: limit 8). */
const SEARCH_LIMIT = 8;
const DESCRIPTION_CUT = 120;

type VariantRow = {
  id: number;
  label: string;
  options: VariantOptions;
  price: number;
  compareAt: number | null;
  stock: number;
};
type ImageRow = { url: string; alt: string; colour: string | null; widths: number[] };
export type CatalogueRow = {
  id: number;
  slug: string;
  name: string;
  price: number;
  description: string | null;
  options: ProductOption[];
  variants: VariantRow[];
  images: ImageRow[];
};

/** A product with its variants (own price, else the product's) and pictures: one statement.
 * Inside a selected field drizzle writes a column unqualified ("id"), which in a subquery would
 * name the subquery's own column: the outer product's columns are spelled out. */
const outer = {
  id: sql.raw('"products"."id"'),
  price: sql.raw('"products"."price"'),
};
const columns = {
  id: products.id,
  slug: products.slug,
  name: products.productName,
  price: products.price,
  description: products.description,
  options: products.options,
  variants: sql<VariantRow[]>`(
    select coalesce(json_agg(json_build_object(
      'id', v.id, 'label', v.label, 'options', v.options,
      'price', coalesce(v.price, ${outer.price}), 'compareAt', v.compare_at_price,
      'stock', v.stock) order by v.position, v.id), '[]'::json)
    from product_variants v where v.product_id = ${outer.id})`,
  images: sql<ImageRow[]>`(
    select coalesce(json_agg(json_build_object(
      'url', i.url, 'alt', i.alt, 'colour', i.colour, 'widths', i.widths)
      order by i.position, i.id), '[]'::json)
    from product_images i where i.product_id = ${outer.id})`,
};

function rowOf(row: {
  id: number;
  slug: string;
  name: string;
  price: number;
  description: string | null;
  options: ProductOption[] | null;
  variants: VariantRow[] | string;
  images: ImageRow[] | string;
}): CatalogueRow {
  const parse = <T>(value: T[] | string): T[] =>
    typeof value === 'string' ? (JSON.parse(value) as T[]) : (value ?? []);
  return {
    ...row,
    options: row.options ?? [],
    variants: parse(row.variants).map((v) => ({
      ...v,
      price: Number(v.price),
      compareAt: v.compareAt == null ? null : Number(v.compareAt),
      stock: Number(v.stock),
    })),
    images: parse(row.images).map((i) => ({ ...i, widths: (i.widths ?? []).map(Number) })),
  };
}

/** Every product the assistant reads: pieces on sale only (a draft or an archived piece is never
 * named, linked or shown as a card). */
export async function readProducts(
  db: Db,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
): Promise<CatalogueRow[]> {
  const rows = await db
    .select(columns)
    .from(products)
    .where(and(onSale, where))
    .orderBy(...order)
    .limit(limit);
  return rows.map(rowOf);
}

/** Spec: name or description matches a keyword, cheapest first, 8; no keyword: newest 6. */
export function searchCatalogue(db: Db, query: string): Promise<CatalogueRow[]> {
  const words = keywords(query);
  if (words.length === 0) {
    return readProducts(db, undefined, [desc(products.createdAt), desc(products.id)], 6);
  }
  return readProducts(
    db,
    or(
      ...words.flatMap((word) => [
        ilike(products.productName, likePattern(word)),
        ilike(products.description, likePattern(word)),
      ]),
    ),
    [asc(products.price), asc(products.id)],
    SEARCH_LIMIT,
  );
}

/**
 * The piece a shopper names ("the Ankara wrap dress"): the products whose names hold the most of
 * its words, cheapest first among equals. The best is first; ties follow it.
 */
export async function findByName(db: Db, name: string): Promise<CatalogueRow[]> {
  const words = keywords(name);
  if (words.length === 0) return [];
  const score = sql.join(
    words.map((word) => sql`(${products.productName} ilike ${likePattern(word)})::int`),
    sql` + `,
  );
  const rows = await readProducts(
    db,
    or(...words.map((word) => ilike(products.productName, likePattern(word)))),
    [sql`(${score}) desc`, asc(products.price), asc(products.id)],
    3,
  );
  const best = (row: CatalogueRow) =>
    words.filter((word) => row.name.toLowerCase().includes(word)).length;
  const top = rows[0] ? best(rows[0]) : 0;
  return rows.filter((row) => best(row) === top);
}

// ---------------------------------------------------------------- what the model is told

const sizeOption = (row: CatalogueRow) => row.options.find((o) => o.name === SIZE);
const colourOption = (row: CatalogueRow) => row.options.find((o) => o.name === COLOUR);

function priceWords(variants: readonly { price: number }[], fallback: number) {
  const prices = variants.map((v) => v.price);
  const from = prices.length ? Math.min(...prices) : fallback;
  const to = prices.length ? Math.max(...prices) : fallback;
  return { from, to, text: to > from ? `from ${formatUGX(from)}` : formatUGX(from) };
}

/** The struck-through price of a card: only when every variant shown is on sale (core saleOf). */
function saleFrom(variants: readonly VariantRow[]): number | null {
  return saleOf(variants.map((v) => ({ price: v.price, compareAtPrice: v.compareAt })))
    .compareAtPrice;
}

/** 'sold out', '2 left' (at most FEW_LEFT), else 'in stock'. */
function fewWords(stock: number): string {
  if (stock <= 0) return 'sold out';
  return stock <= FEW_LEFT ? `${stock} left` : 'in stock';
}

/** A variant's stock as the shop shows it: 'sold out', '2 left' (under 10), 'in stock'. */
export function stockWords(stock: number): string {
  if (stock <= 0) return 'sold out';
  return lowStockBadge(stock) ? `${stock} left` : 'in stock';
}

/**
 * Each size in order, with what is short: 'S', 'M: Indigo 2 left', 'XXL: Indigo 3 left, no
 * Terracotta', 'XL sold out' (every colour). Undefined for a piece without sizes.
 */
export function sizeLines(row: CatalogueRow): string[] | undefined {
  const sizes = sizeOption(row);
  if (!sizes) return undefined;
  const coloured = Boolean(colourOption(row));
  return sizes.values.flatMap((size) => {
    const of = row.variants.filter((v) => v.options[SIZE] === size);
    if (of.length === 0) return [];
    if (of.every((v) => v.stock <= 0)) return [`${size} sold out`];
    if (!coloured) {
      const [only] = of;
      return [only && only.stock <= FEW_LEFT ? `${size}: ${fewWords(only.stock)}` : size];
    }
    const few = of
      .filter((v) => v.stock > 0 && v.stock <= FEW_LEFT)
      .map((v) => `${v.options[COLOUR]} ${fewWords(v.stock)}`);
    const gone = of.filter((v) => v.stock <= 0).map((v) => v.options[COLOUR]);
    const short = [...few, ...(gone.length ? [`no ${gone.join('/')}`] : [])];
    return [short.length ? `${size}: ${short.join(', ')}` : size];
  });
}

/** One product in a search's answer to the model: small, and only what the catalogue says. */
export function searchAnswer(row: CatalogueRow) {
  const price = priceWords(row.variants, row.price);
  const was = saleFrom(row.variants);
  const total = row.variants.reduce((sum, v) => sum + Math.max(0, v.stock), 0);
  const sizes = sizeLines(row);
  const colours = colourOption(row)?.values;
  return {
    name: row.name,
    price: price.text,
    ...(was ? { onSale: true, wasPrice: formatUGX(was) } : {}),
    link: `/products/${row.slug}`,
    ...(colours ? { colours } : {}),
    ...(sizes ? { sizes } : {}),
    stock: fewWords(total),
    description: (row.description ?? '').slice(0, DESCRIPTION_CUT),
  };
}

const SIZE_WORDS: Record<string, string> = {
  'extra small': 'XS',
  small: 'S',
  medium: 'M',
  large: 'L',
  'extra large': 'XL',
  'double extra large': 'XXL',
  '2xl': 'XXL',
};

/** 'size m', 'Medium', 'EU 38' → the value the piece's Size option uses, if it has it. */
export function matchSize(row: CatalogueRow, asked: string): string | null {
  const given = asked
    .trim()
    .toLowerCase()
    .replace(/^(size|eu|uk)\s+/, '')
    .replace(/\s+/g, ' ');
  const wanted = (SIZE_WORDS[given] ?? given).toUpperCase();
  return sizeOption(row)?.values.find((value) => value.toUpperCase() === wanted) ?? null;
}

export function matchColour(row: CatalogueRow, asked: string): string | null {
  const given = asked.trim().toLowerCase();
  return colourOption(row)?.values.find((value) => value.toLowerCase() === given) ?? null;
}

export type AvailabilityChoice = {
  row: CatalogueRow;
  size: string | null;
  colour: string | null;
  /** The variants that fit what was asked. */
  variants: VariantRow[];
  /** What could not be matched, said plainly. */
  notes: string[];
};

/** The variants of `row` that fit an asked size and colour (either may be missing). */
export function chooseVariants(
  row: CatalogueRow,
  asked: { size?: string; colour?: string },
): AvailabilityChoice {
  const notes: string[] = [];
  let size: string | null = null;
  let colour: string | null = null;
  if (asked.size?.trim()) {
    if (!sizeOption(row)) notes.push('It comes in one size.');
    else {
      size = matchSize(row, asked.size);
      if (!size) {
        notes.push(
          `It does not come in size ${asked.size.trim().slice(0, 20)}; its sizes are ${sizeOption(row)?.values.join(', ')}.`,
        );
      }
    }
  }
  if (asked.colour?.trim()) {
    if (!colourOption(row)) notes.push('It comes in one colour.');
    else {
      colour = matchColour(row, asked.colour);
      if (!colour) {
        notes.push(
          `It does not come in ${asked.colour.trim().slice(0, 30)}; its colours are ${colourOption(row)?.values.join(', ')}.`,
        );
      }
    }
  }
  const unmatched = notes.some((note) => note.startsWith('It does not'));
  const variants = unmatched
    ? []
    : row.variants.filter(
        (v) => (!size || v.options[SIZE] === size) && (!colour || v.options[COLOUR] === colour),
      );
  return { row, size, colour, variants, notes };
}

/** The availability tool's answer to the model: every fitting variant and its stock. */
export function availabilityAnswer(choice: AvailabilityChoice, others: string[]) {
  const { row, variants, notes } = choice;
  const price = priceWords(row.variants, row.price);
  const single = variants.length === 1 ? variants[0] : undefined;
  return {
    name: row.name,
    price: price.text,
    link:
      single && row.variants.length > 1
        ? `/products/${row.slug}?variant=${single.id}`
        : `/products/${row.slug}`,
    ...(sizeOption(row) ? { sizes: sizeOption(row)?.values } : {}),
    ...(colourOption(row) ? { colours: colourOption(row)?.values } : {}),
    variants: variants.map((v) => ({
      variant: v.label || 'one size',
      ...(v.price !== price.from ? { price: formatUGX(v.price) } : {}),
      ...(v.compareAt !== null && v.compareAt > v.price
        ? { wasPrice: formatUGX(v.compareAt) }
        : {}),
      stock: stockWords(v.stock),
    })),
    ...(notes.length ? { note: notes.join(' ') } : {}),
    ...(others.length ? { alsoMatching: others } : {}),
  };
}

// ---------------------------------------------------------------- what the widget shows

function availabilityText(variants: readonly VariantRow[], sizesLeft: string[] | null): string {
  const total = variants.reduce((sum, v) => sum + Math.max(0, v.stock), 0);
  if (total <= 0) return 'Sold out';
  return sizesLeftHint(sizesLeft) ?? lowStockBadge(total) ?? 'In stock';
}

/** A product as a card; `choice` narrows it to the variant(s) asked about. */
export function cardOf(row: CatalogueRow, choice?: AvailabilityChoice): ChatProductCard {
  const variants = choice && choice.variants.length > 0 ? choice.variants : row.variants;
  const price = priceWords(variants, row.price);
  const single = choice && variants.length === 1 ? variants[0] : undefined;
  const picture = picturesFor(row.images, choice?.colour ?? single?.options[COLOUR])[0];
  const sizes = sizeOption(row);
  const sizesLeft = sizes
    ? sizes.values.filter((size) => variants.some((v) => v.options[SIZE] === size && v.stock > 0))
    : null;
  let availability = availabilityText(variants, sizesLeft);
  const variantStock = (v: VariantRow) =>
    v.stock <= 0 ? 'Sold out' : (lowStockBadge(v.stock) ?? 'In stock');
  if (single) availability = variantStock(single);
  else if (choice?.size && variants.some((v) => v.stock > 0)) {
    // One size in several colours: each colour's stock ("Indigo 2 left · Terracotta").
    availability = variants
      .map((v) => {
        const colour = v.options[COLOUR] ?? v.label;
        if (v.stock <= 0) return `${colour} sold out`;
        return lowStockBadge(v.stock) ? `${colour} ${v.stock} left` : colour;
      })
      .join(' · ');
  }
  const asked = choice ? [choice.size, choice.colour].filter(Boolean).join(' · ') : '';
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    price: price.from,
    priceTo: price.to,
    compareAtPrice: saleFrom(variants),
    image: picture ? { url: picture.url, alt: picture.alt, widths: picture.widths } : null,
    variantId: single && row.variants.length > 1 ? single.id : null,
    variantLabel: single?.label || asked || null,
    availability,
  };
}
