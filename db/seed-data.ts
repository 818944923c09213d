/**
 * The demo catalogue: a Kampala fashion house, priced in whole UGX.
 * Pure (only pure imports) so tests, the seeder and the art script can all read it. Every picture
 * `seedPictures` names is drawn by art/generate.ts.
 */
import { slugify } from '#core/slug.ts';
import {
  COLOUR,
  type Kind,
  type ProductOption,
  SIZE,
  SIZES,
  variantLabel,
} from '#core/variants.ts';

export type SeedCategory = { name: string };

export type SeedProduct = {
  name: string;
  /** Whole Uganda shillings. */
  price: number;
  /** Pieces in all sizes and colours, spread over them by `seedVariants` (middle sizes most). */
  quantity: number;
  /** The colours it comes in, when more than one. */
  colours?: string[];
  /** Stock of particular variants by label ("M · Indigo"), over the spread. */
  stock?: Record<string, number>;
  /** The price before a sale, shown struck through. */
  compareAtPrice?: number;
  description: string;
  category: string;
  /** Distinct per product so "newest first" ordering is meaningful. */
  createdDaysAgo: number;
};

export type SeedSeller = {
  businessName: string;
  contactName: string;
  /** +256 and nine digits, no spaces. */
  phone: string;
  /** Names of products in `products`. */
  products: string[];
};

export const categories: SeedCategory[] = [
  { name: 'Dresses' },
  { name: 'Tops' },
  { name: 'Trousers & Skirts' },
  { name: 'Outerwear' },
  { name: 'Shoes' },
  { name: 'Bags' },
  { name: 'Jewellery' },
  { name: 'Accessories' },
];

export const products: SeedProduct[] = [
  // Dresses
  {
    name: 'Ankara Wrap Dress',
    price: 145_000,
    quantity: 30,
    colours: ['Indigo', 'Terracotta'],
    stock: { 'M · Indigo': 2, 'XXL · Terracotta': 0 },
    description:
      'A true wrap in crisp Dutch-wax ankara cotton, with a deep V, flutter sleeves and a tie that sits at the natural waist. It falls just below the knee and moves beautifully at a Kampala evening dinner. Cool hand wash; press on the reverse.',
    category: 'Dresses',
    createdDaysAgo: 2,
  },
  {
    name: 'Kitenge Button-Front Shirt Dress',
    price: 98_000,
    quantity: 24,
    colours: ['Indigo', 'Ochre'],
    description:
      'Indigo and ochre kitenge cotton cut as a relaxed shirt dress with a camp collar, horn-look buttons and a self-tie belt. Wear it buttoned for the office or open over trousers at the weekend. Machine wash cold.',
    category: 'Dresses',
    createdDaysAgo: 19,
  },
  {
    name: 'Gomesi-Inspired Silk Gown',
    price: 420_000,
    quantity: 0,
    description:
      'Our modern take on the gomesi: raised square shoulders, a square neckline and a wide sash tied at the waist, in heavyweight silk satin that floats to the floor. Made for kwanjula introductions and wedding receptions. Dry clean only.',
    category: 'Dresses',
    createdDaysAgo: 5,
  },
  {
    name: 'Kwanjula Satin Maxi Dress',
    price: 285_000,
    quantity: 3,
    description:
      'Liquid satin in deep burgundy with fluttered cap sleeves, a fluted hem and a bark-cloth-toned sash, fully lined. Cut for the guest who will be photographed all afternoon. Dry clean.',
    category: 'Dresses',
    createdDaysAgo: 11,
  },
  {
    name: 'Linen Sunday Slip Dress',
    price: 100_000,
    quantity: 31,
    colours: ['Sand', 'Black'],
    stock: { 'S · Black': 0, 'M · Black': 1 },
    description:
      'Midweight linen on a gentle A-line with adjustable straps and a softly scooped neck. Layer a cardigan over it for Sunday service, then drop it for lunch in the garden. Machine wash; it only gets softer.',
    category: 'Dresses',
    createdDaysAgo: 34,
  },
  {
    name: 'Nakasero Tiered Sundress',
    price: 75_000,
    quantity: 27,
    colours: ['Marigold', 'Sage', 'Ivory'],
    description:
      'Three gathered tiers of breezy cotton voile with a fine ochre stripe, short sleeves and hidden side pockets. Lined to the knee, so it stays modest in the midday sun.',
    category: 'Dresses',
    createdDaysAgo: 47,
  },
  {
    name: 'Cotton Poplin Shift Dress',
    price: 58_000,
    quantity: 40,
    compareAtPrice: 78_000,
    description:
      'A clean, boxy shift in crisp cotton poplin with cap sleeves and bust darts, ending just above the knee. The quiet workhorse of a capsule wardrobe; iron warm while slightly damp.',
    category: 'Dresses',
    createdDaysAgo: 88,
  },

  // Tops
  {
    name: 'Barkcloth-Trim Linen Shirt',
    price: 85_000,
    quantity: 22,
    description:
      'A relaxed linen shirt whose collar, pocket and cuffs are faced in genuine Ugandan barkcloth. Breathable for a midday meeting in town, smart enough for dinner after. Hand wash gently.',
    category: 'Tops',
    createdDaysAgo: 8,
  },
  {
    name: 'Kitenge Peplum Blouse',
    price: 65_000,
    quantity: 18,
    description:
      'Structured kitenge cotton with a fitted bodice, elbow sleeves and a flared peplum that defines the waist. Pair it with a pencil skirt for work or wide trousers for weekend brunch.',
    category: 'Tops',
    createdDaysAgo: 26,
  },
  {
    name: 'Ivory Silk Camisole',
    price: 48_000,
    quantity: 9,
    description:
      'Pure silk charmeuse with adjustable straps and a softly draped neckline. Wear it alone on warm nights or under a blazer. Hand wash cold and dry flat in the shade.',
    category: 'Tops',
    createdDaysAgo: 6,
  },
  {
    name: 'Ribbed Cotton Tee',
    price: 25_000,
    quantity: 60,
    colours: ['White', 'Black', 'Olive'],
    description:
      'A fitted crew-neck tee in stretch cotton rib, cut slightly short to sit right on high-waisted trousers. Keeps its shape wash after wash.',
    category: 'Tops',
    createdDaysAgo: 102,
  },
  {
    name: 'Ankara Off-Shoulder Top',
    price: 45_000,
    quantity: 33,
    description:
      'A bardot neckline with a soft ruffle and elasticated puff sleeves in vivid ankara wax print. It sits neatly off the shoulders without slipping; lovely with denim or a plain midi skirt.',
    category: 'Tops',
    createdDaysAgo: 39,
  },
  {
    name: 'Pleated Chiffon Blouse',
    price: 58_000,
    quantity: 15,
    description:
      'Fine micro-pleated chiffon with a high neck, a keyhole button at the back and sheer long sleeves. Lined through the body; roll it to pack and the pleats stay crisp.',
    category: 'Tops',
    createdDaysAgo: 57,
  },
  {
    name: 'Breton Stripe Tee',
    price: 32_000,
    quantity: 44,
    colours: ['Navy', 'Red'],
    description:
      'Heavy cotton jersey in ink and cream stripes with a boat neck and three-quarter sleeves. The easiest smart-casual layer for coffee in Kisementi or Saturday errands in Kololo.',
    category: 'Tops',
    createdDaysAgo: 121,
  },

  // Trousers & Skirts
  {
    name: 'High-Waist Wide-Leg Trousers',
    price: 110_000,
    quantity: 16,
    colours: ['Black', 'Camel'],
    stock: { 'M · Camel': 0 },
    description:
      'Fluid crepe trousers with a high double-button waistband, front pleats and wide legs that skim the floor in a heel. Tailored in our Nakasero workroom; dry clean or cool hand wash.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 9,
  },
  {
    name: 'Kitenge Pleated Midi Skirt',
    price: 68_000,
    quantity: 21,
    description:
      'Knife-pleated kitenge in a terracotta and cream geometric print, set on a smooth waistband with a side zip. It swishes well below the knee, just right for Sunday service.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 23,
  },
  {
    name: 'Linen Drawstring Trousers',
    price: 50_000,
    quantity: 38,
    colours: ['Natural', 'Olive'],
    description:
      'Relaxed straight-leg linen with a drawstring waist and deep side pockets. Cool through the hottest afternoon; roll the hem for the weekend.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 64,
  },
  {
    name: 'Tailored Cigarette Trousers',
    price: 95_000,
    quantity: 19,
    description:
      'Slim, ankle-grazing trousers in stretch suiting with pressed creases and a flat front. Sharp with loafers for work and just as good with heels after hours.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 75,
  },
  {
    name: 'Denim A-Line Mini Skirt',
    price: 39_000,
    quantity: 35,
    description:
      'Rigid cotton denim with contrast topstitching, a button front and a clean A-line that sits on the waist. Wear it with a tucked tee and flat sandals.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 110,
  },
  {
    name: 'Satin Bias-Cut Slip Skirt',
    price: 55_000,
    quantity: 26,
    description:
      'Cut on the bias so it skims rather than clings, in dusky olive satin with an elastic back waist. Dress it up with heels or down with a knit and sneakers.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 31,
  },
  {
    name: 'Ankara Palazzo Pants',
    price: 62_000,
    quantity: 29,
    description:
      'Full, floaty palazzo trousers in bold ankara print with an elasticated back waist and side pockets. As comfortable as pyjamas, as polished as a dress.',
    category: 'Trousers & Skirts',
    createdDaysAgo: 52,
  },

  // Outerwear
  {
    name: 'Barkcloth-Collar Wool Blazer',
    price: 380_000,
    quantity: 2,
    description:
      'A single-breasted blazer in fine wool, finished with an undercollar and pocket welts in hand-beaten Ugandan barkcloth. Half-canvassed, fully lined and tailored in Nakasero; dry clean only.',
    category: 'Outerwear',
    createdDaysAgo: 4,
  },
  {
    name: 'Kampala Evening Trench Coat',
    price: 325_000,
    quantity: 12,
    description:
      'A double-breasted trench in water-resistant cotton gabardine with a storm flap, belted waist and kitenge-print lining. Made for the long rains of March and October.',
    category: 'Outerwear',
    createdDaysAgo: 17,
  },
  {
    name: 'Kitenge Kimono Jacket',
    price: 120_000,
    quantity: 7,
    description:
      'An unlined, open-front kimono in lightweight kitenge with wide sleeves and a contrast front band. Throw it over a slip dress for an evening on a rooftop terrace.',
    category: 'Outerwear',
    createdDaysAgo: 28,
  },
  {
    name: 'Cropped Denim Jacket',
    price: 88_000,
    quantity: 23,
    colours: ['Indigo', 'Black'],
    description:
      'Mid-wash denim cut short to sit on the waist, with chest flap pockets, copper-tone buttons and a relaxed sleeve. It layers over dresses without swallowing them.',
    category: 'Outerwear',
    createdDaysAgo: 96,
  },
  {
    name: 'Lightweight Linen Blazer',
    price: 165_000,
    quantity: 14,
    description:
      'An unstructured, half-lined blazer in sand linen with patch pockets and a soft shoulder. It wears like a cardigan, looks like tailoring and lets the breeze through on a hot afternoon.',
    category: 'Outerwear',
    createdDaysAgo: 43,
  },
  {
    name: 'Quilted Ankara Bomber',
    price: 140_000,
    quantity: 17,
    description:
      'Diamond-quilted ankara cotton with a light fill, ribbed collar, cuffs and hem, and a two-way brass zip. Warm enough for chilly July mornings, light enough to carry.',
    category: 'Outerwear',
    createdDaysAgo: 69,
  },
  {
    name: 'Crochet Cotton Cardigan',
    price: 50_000,
    quantity: 20,
    description:
      'Hand-crocheted in soft cotton yarn by a women\u2019s cooperative near Mukono, with a V-neck and shell buttons. Open-work stitches keep it cool; dry flat to keep its shape.',
    category: 'Outerwear',
    createdDaysAgo: 83,
  },

  // Shoes
  {
    name: 'Kisementi Leather Penny Loafers',
    price: 185_000,
    quantity: 13,
    description:
      'Hand-lasted in full-grain cognac leather with a penny strap, leather sole and cushioned insole. Made in our Kisementi workshop; they mould to your feet within a week.',
    category: 'Shoes',
    createdDaysAgo: 12,
  },
  {
    name: 'Strappy Block-Heel Sandals',
    price: 98_000,
    quantity: 25,
    description:
      'Slim leather straps on a steady 7 cm block heel with an adjustable ankle buckle. Comfortable enough to dance through a whole wedding reception.',
    category: 'Shoes',
    createdDaysAgo: 36,
  },
  {
    name: 'Ankara Canvas Sneakers',
    price: 45_000,
    quantity: 48,
    colours: ['Indigo', 'Terracotta'],
    description:
      'Low-top canvas sneakers covered in ankara print, with a vulcanised rubber sole and cotton laces. Spot clean with a damp cloth.',
    category: 'Shoes',
    createdDaysAgo: 60,
  },
  {
    name: 'Leather Slide Sandals',
    price: 42_000,
    quantity: 37,
    colours: ['Tan', 'Black'],
    description:
      'A single wide band of vegetable-tanned leather on a moulded footbed. Slip-on ease for weekends; the leather darkens beautifully with wear.',
    category: 'Shoes',
    createdDaysAgo: 115,
  },
  {
    name: 'Pointed Suede Pumps',
    price: 210_000,
    quantity: 0,
    description:
      'Classic pointed-toe pumps in soft suede on a 9 cm heel, with a padded leather lining. Brush with a suede brush and keep them in the dust bag provided.',
    category: 'Shoes',
    createdDaysAgo: 21,
  },
  {
    name: 'Beaded Ballet Flats',
    price: 55_000,
    quantity: 30,
    description:
      'Soft leather ballet flats edged with hand-stitched glass beads along the topline. Light, flexible and easy to pack for a weekend in Jinja.',
    category: 'Shoes',
    createdDaysAgo: 79,
  },
  {
    name: 'Chelsea Ankle Boots',
    price: 215_000,
    quantity: 5,
    compareAtPrice: 260_000,
    description:
      'Polished black leather Chelsea boots with elastic side gussets, a pull tab and a stacked 3 cm heel. Stitched, resoleable leather soles from our Kisementi workshop.',
    category: 'Shoes',
    createdDaysAgo: 45,
  },

  // Bags
  {
    name: 'Kisementi Leather Tote',
    price: 240_000,
    quantity: 11,
    description:
      'A roomy, unlined tote in thick vegetable-tanned leather with riveted handles and an inner zip pocket. It fits a 15-inch laptop and everything else, and ages to a rich honey tone.',
    category: 'Bags',
    createdDaysAgo: 7,
  },
  {
    name: 'Woven Raffia Basket Bag',
    price: 38_000,
    quantity: 42,
    description:
      'A tightly hand-woven raffia basket with rolled leather handles and a drawstring cotton liner. Made for market mornings and weekends by the lake.',
    category: 'Bags',
    createdDaysAgo: 66,
  },
  {
    name: 'Ankara Canvas Shopper',
    price: 29_000,
    quantity: 55,
    description:
      'Heavy cotton canvas with an ankara-print front panel, long shoulder straps and a magnetic snap. Folds flat into your handbag.',
    category: 'Bags',
    createdDaysAgo: 99,
  },
  {
    name: 'Structured Top-Handle Bag',
    price: 310_000,
    quantity: 4,
    description:
      'A sculpted top-handle bag in smooth calf leather with a turn-lock clasp, detachable shoulder strap and suede lining. Polished enough for a kwanjula, compact enough for dinner.',
    category: 'Bags',
    createdDaysAgo: 15,
  },
  {
    name: 'Leather Crossbody Saddle Bag',
    price: 165_000,
    quantity: 18,
    description:
      'A half-moon saddle bag in pebbled leather with an adjustable strap and antique-brass hardware. Hands-free for busy market runs or a full day of errands.',
    category: 'Bags',
    createdDaysAgo: 50,
  },
  {
    name: 'Barkcloth Evening Clutch',
    price: 100_000,
    quantity: 16,
    description:
      'An envelope clutch covered in hand-beaten barkcloth from Masaka, with a leather-trimmed flap and a hidden chain strap. Every piece has its own grain.',
    category: 'Bags',
    createdDaysAgo: 24,
  },
  {
    name: 'Beaded Wristlet Pouch',
    price: 22_000,
    quantity: 46,
    description:
      'A small zip pouch covered in glass seed beads, with a detachable wrist loop. Holds a phone, cards and a lipstick.',
    category: 'Bags',
    createdDaysAgo: 128,
  },

  // Jewellery
  {
    name: 'Brass Cowrie Drop Earrings',
    price: 35_000,
    quantity: 39,
    description:
      'Hand-cast brass discs with a single cowrie shell drop, on nickel-free hooks. Light enough to wear from morning meetings to evening drinks.',
    category: 'Jewellery',
    createdDaysAgo: 1,
  },
  {
    name: 'Bone and Brass Cuff',
    price: 68_000,
    quantity: 0,
    description:
      'A wide open cuff of polished cattle bone inlaid with hammered brass bands. Gently adjustable to fit most wrists.',
    category: 'Jewellery',
    createdDaysAgo: 41,
  },
  {
    name: 'Gold-Plated Hoop Earrings',
    price: 45_000,
    quantity: 52,
    description:
      'Medium hoops in 18-carat gold-plated brass with a hinged snap closure. The everyday pair that goes with everything.',
    category: 'Jewellery',
    createdDaysAgo: 92,
  },
  {
    name: 'Kwanjula Bead Collar Necklace',
    price: 150_000,
    quantity: 6,
    description:
      'A statement collar of hand-strung glass beads in gold, burgundy and cream, finished with a brass hook clasp. Made to sit beautifully over a gomesi neckline at an introduction ceremony.',
    category: 'Jewellery',
    createdDaysAgo: 3,
  },
  {
    name: 'Sterling Silver Chain Necklace',
    price: 120_000,
    quantity: 21,
    description:
      'A fine curb chain in solid 925 sterling silver with a small oval pendant, adjustable from 40 to 45 cm. Polish with a soft cloth.',
    category: 'Jewellery',
    createdDaysAgo: 55,
  },
  {
    name: 'Paper Bead Stacking Bracelet',
    price: 15_000,
    quantity: 58,
    description:
      'Rolled recycled-paper beads, varnished to a high gloss and strung on stretch cord by artisans in Kampala. Stack three or four for colour.',
    category: 'Jewellery',
    createdDaysAgo: 135,
  },
  {
    name: 'Ankole Horn Statement Ring',
    price: 32_000,
    quantity: 28,
    description:
      'A domed ring carved from naturally shed Ankole cattle horn and polished to a deep glow. Each one carries its own banding.',
    category: 'Jewellery',
    createdDaysAgo: 72,
  },

  // Accessories
  {
    name: 'Silk Kitenge Headwrap',
    price: 30_000,
    quantity: 41,
    description:
      'A long silk-blend wrap printed with a kitenge motif, generous enough for a full turban or a simple knotted band. Comes with a quick tying guide.',
    category: 'Accessories',
    createdDaysAgo: 30,
  },
  {
    name: 'Woven Leather Belt',
    price: 58_000,
    quantity: 24,
    description:
      'Hand-plaited leather strips with a solid brass buckle; the weave lets you fasten it at any length. Cut and finished in Kisementi.',
    category: 'Accessories',
    createdDaysAgo: 86,
  },
  {
    name: 'Tortoiseshell Cat-Eye Sunglasses',
    price: 85_000,
    quantity: 19,
    description:
      'Acetate frames in warm tortoiseshell with gradient UV400 lenses and a gently lifted cat-eye. Comes with a barkcloth-lined case.',
    category: 'Accessories',
    createdDaysAgo: 20,
  },
  {
    name: 'Ankara Silk Twill Scarf',
    price: 45_000,
    quantity: 34,
    description:
      'A 90 cm square of silk twill printed with an ankara-inspired border and finished with hand-rolled edges. Wear it at the neck, in the hair or knotted on a bag handle.',
    category: 'Accessories',
    createdDaysAgo: 48,
  },
  {
    name: 'Straw Wide-Brim Hat',
    price: 55_000,
    quantity: 0,
    description:
      'A wide-brimmed hat in finely woven natural straw with a grosgrain band. Shade for garden weddings and long afternoons by the pool.',
    category: 'Accessories',
    createdDaysAgo: 62,
  },
  {
    name: 'Barkcloth Scrunchie Set',
    price: 18_000,
    quantity: 50,
    description:
      'Three generous scrunchies: one in barkcloth-toned satin, one in kitenge cotton and one in ivory silk. Gentle on natural hair.',
    category: 'Accessories',
    createdDaysAgo: 106,
  },
  {
    name: 'Leather Card Wallet',
    price: 40_000,
    quantity: 33,
    description:
      'A slim card wallet in vegetable-tanned leather with four card slots and a centre pocket for folded notes. Edge-painted and hand-stitched.',
    category: 'Accessories',
    createdDaysAgo: 140,
  },
];

export const sellers: SeedSeller[] = [
  {
    businessName: 'Nakasero Atelier',
    contactName: 'Grace Namugga',
    phone: '+256772418305',
    products: [
      'Ankara Wrap Dress',
      'Gomesi-Inspired Silk Gown',
      'Kwanjula Satin Maxi Dress',
      'Barkcloth-Trim Linen Shirt',
      'Kitenge Peplum Blouse',
      'High-Waist Wide-Leg Trousers',
      'Barkcloth-Collar Wool Blazer',
      'Kampala Evening Trench Coat',
      'Kitenge Kimono Jacket',
      'Lightweight Linen Blazer',
    ],
  },
  {
    businessName: 'Kisementi Leather Works',
    contactName: 'Daniel Ssempijja',
    phone: '+256701552947',
    products: [
      'Kisementi Leather Penny Loafers',
      'Chelsea Ankle Boots',
      'Leather Slide Sandals',
      'Kisementi Leather Tote',
      'Structured Top-Handle Bag',
      'Leather Crossbody Saddle Bag',
      'Woven Leather Belt',
      'Leather Card Wallet',
    ],
  },
];

export const adminPhone = '+256759301488';

// ---------------------------------------------------------------- sizes, colours and pictures

const CLOTHES = new Set(['Dresses', 'Tops', 'Trousers & Skirts', 'Outerwear']);
/** The sizes the demo shoes come in: part of the EU 36–46 system. */
const SHOE_SIZES = ['36', '37', '38', '39', '40', '41', '42'];

/** Clothes and shoes come in sizes; bags, jewellery and accessories in one size. */
export function seedKind(product: SeedProduct): Kind {
  if (CLOTHES.has(product.category)) return 'clothes';
  return product.category === 'Shoes' ? 'shoes' : 'one-size';
}

export function seedOptions(product: SeedProduct): ProductOption[] {
  const kind = seedKind(product);
  const sizes = kind === 'clothes' ? [...SIZES.clothes] : kind === 'shoes' ? SHOE_SIZES : [];
  const options: ProductOption[] = [];
  if (sizes.length > 0) options.push({ name: SIZE, values: sizes });
  if (product.colours && product.colours.length > 1) {
    options.push({ name: COLOUR, values: product.colours });
  }
  return options;
}

export type SeedVariant = {
  sku: string;
  options: Record<string, string>;
  label: string;
  stock: number;
  compareAtPrice: number | null;
};

/**
 * Every combination of the product's options (sizes first), with `quantity` spread over them:
 * middle sizes get most, the remainder goes to the best-weighted first; `stock` overrides.
 */
export function seedVariants(product: SeedProduct): SeedVariant[] {
  const options = seedOptions(product);
  let combos: Record<string, string>[] = [{}];
  for (const option of options) {
    combos = combos.flatMap((combo) =>
      option.values.map((value) => ({ ...combo, [option.name]: value })),
    );
  }
  const sizes = options.find((o) => o.name === SIZE)?.values ?? [''];
  const weightOf = (combo: Record<string, string>) => {
    const at = sizes.indexOf(combo[SIZE] ?? '');
    return Math.min(at + 1, sizes.length - at);
  };
  const weights = combos.map(weightOf);
  const sum = weights.reduce((a, b) => a + b, 0);
  const stocks = weights.map((w) => Math.floor((product.quantity * w) / sum));
  let left = product.quantity - stocks.reduce((a, b) => a + b, 0);
  const byWeight = weights
    .map((w, i) => [w, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byWeight) {
    if (left === 0) break;
    stocks[i] = (stocks[i] ?? 0) + 1;
    left -= 1;
  }
  const code = slugify(product.name)
    .split('-')
    .map((word) => word.slice(0, 3))
    .join('')
    .toUpperCase();
  return combos.map((combo, i) => {
    const label = variantLabel(combo, options);
    return {
      sku: ['DK', code, ...Object.values(combo).map((v) => slugify(v).toUpperCase())].join('-'),
      options: combo,
      label,
      stock: product.stock?.[label] ?? stocks[i] ?? 0,
      compareAtPrice: product.compareAtPrice ?? null,
    };
  });
}

/** The widths every demo picture is stored at, as WebP; the JPEG fallback is 800 wide. */
export const PICTURE_WIDTHS = [400, 800, 1200];
/** Each demo picture's size at its largest width (art/generate.ts draws them 4:5). */
export const PICTURE_SIZE = { width: 1200, height: 1500 } as const;

export type SeedPicture = {
  /** The JPEG fallback's URL; the WebP copies are `{stem}-{width}.webp` beside it. */
  url: string;
  alt: string;
  colour: string | null;
  /** What art/generate.ts draws: the whole piece, a close detail, or the piece from behind. */
  view: 'piece' | 'detail' | 'back';
};

/**
 * The pictures of a demo piece, in order: the piece in each of its colours, a close detail, and
 * for a piece in one colour its back as well, so every piece of clothing has at least three.
 */
export function seedPictures(product: SeedProduct): SeedPicture[] {
  const slug = slugify(product.name);
  const colours = product.colours && product.colours.length > 1 ? product.colours : [null];
  const at = (name: string) => `/images/products/${slug}/${name}.jpg`;
  const pictures: SeedPicture[] = colours.map((colour) => ({
    url: at(colour ? slugify(colour) : 'piece'),
    alt: colour ? `${product.name} in ${colour}` : product.name,
    colour,
    view: 'piece',
  }));
  pictures.push({
    url: at('detail'),
    alt: `${product.name}: close detail`,
    colour: null,
    view: 'detail',
  });
  if (colours.length === 1 && seedKind(product) === 'clothes') {
    pictures.push({
      url: at('back'),
      alt: `${product.name}: from behind`,
      colour: null,
      view: 'back',
    });
  }
  return pictures;
}

/** The share picture (1200 × 630 JPEG) of a demo piece. */
export const seedShareImage = (product: SeedProduct) =>
  `/images/products/${slugify(product.name)}/share.jpg`;
