// `npm run art`: draws the catalogue art into public/images.
//
// Art direction: flat editorial fashion illustration. Every product sits on a soft, warm
// category tone (4:5, viewBox 0 0 800 1000): garments hang from a wooden hanger above a floor
// shadow, objects stand on a low plinth. Shapes are plain paths with two shared gradients for
// volume (and a sheen for satin/silk); colour and print come from words in the product's name
// and description (ankara/kitenge → wax-print <pattern>, "indigo", "ochre", "stripe", ...), and
// from the colour a picture shows (SeedProduct.colours: "Indigo", "Terracotta", ... → FABRIC).
//
// Every picture `seedPictures` names is drawn: `piece` (the whole piece, in its colour), `detail`
// (the same drawing zoomed on the kind's focus: print, stitching, buttons, hardware, with a fine
// twill over cloth and leather) and `back` (the garment's outline from behind, with its seams,
// zip, vent or pockets). Each is rasterised with sharp once, at the largest width, then written as
// WebP at every PICTURE_WIDTHS width ({stem}-{width}.webp) and as the 800-wide JPEG fallback
// ({stem}.jpg); each product also gets its 1200 × 630 share picture (seedShareImage). The
// placeholder, heroes and panels stay SVG.
// Output is deterministic: the same seed data always gives byte-identical files.
//
// `npm run art -- tee loafer` redraws only the products whose names contain those words.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import {
  PICTURE_WIDTHS,
  products,
  type SeedPicture,
  type SeedProduct,
  seedPictures,
  seedShareImage,
} from '#db/seed-data.ts';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

// ---------------------------------------------------------------- colour helpers

const rgb = (hex: string): [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16),
];
const hex2 = (n: number) =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, '0');
function mix(a: string, b: string, t: number): string {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  return `#${hex2(r1 + (r2 - r1) * t)}${hex2(g1 + (g2 - g1) * t)}${hex2(b1 + (b2 - b1) * t)}`;
}
const dark = (c: string, t: number) => mix(c, '#1d1a1c', t);
const light = (c: string, t: number) => mix(c, '#fffaf2', t);
function lum(c: string): number {
  const [r, g, b] = rgb(c);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
function pick<T>(list: readonly T[], i: number): T {
  const v = list[((i % list.length) + list.length) % list.length];
  if (v === undefined) throw new Error('empty list');
  return v;
}

// ---------------------------------------------------------------- palette

/** Category tones: muted, warm, quiet enough to let the product lead. */
const CATEGORY_TONE: Record<string, string> = {
  Dresses: '#e8d3c9', // blush
  Tops: '#e9dcc6', // cream
  'Trousers & Skirts': '#dfcdb0', // sand
  Outerwear: '#d3d0b4', // olive
  Shoes: '#dcbca6', // clay
  Bags: '#e3c990', // ochre
  Jewellery: '#2f333e', // ink
  Accessories: '#d9d2c0', // stone
};

const COLOUR_WORDS: Record<string, string> = {
  indigo: '#2e3b63',
  navy: '#28314d',
  ink: '#2a2e3d',
  black: '#28262a',
  ochre: '#c38d3a',
  mustard: '#c99a36',
  emerald: '#23604f',
  teal: '#2f6466',
  olive: '#6f6a38',
  burgundy: '#6b2233',
  terracotta: '#b15b3c',
  rust: '#9a4529',
  ivory: '#efe7d5',
  cream: '#ecdfc5',
  sand: '#cdb48c',
  camel: '#b88b57',
  cognac: '#8a4a26',
  honey: '#b07638',
  tan: '#ad7a48',
};
/** The catalogue's colour names (SeedProduct.colours) as fabric and leather tones. */
const FABRIC: Record<string, string> = {
  indigo: '#2b3a66',
  terracotta: '#b35a3a',
  ochre: '#c68e34',
  sand: '#d3bc94',
  black: '#242226',
  marigold: '#e2a126',
  sage: '#8d9e84',
  ivory: '#efe7d5',
  white: '#f7f4ee',
  olive: '#656b3a',
  navy: '#25304f',
  red: '#b3302e',
  camel: '#b98a55',
  natural: '#ddd0b4',
  tan: '#b07a45',
};
function fabricTone(colour: string): string {
  const tone = FABRIC[colour.toLowerCase()];
  if (!tone) throw new Error(`No fabric tone for the colour ${colour}: add it to FABRIC`);
  return tone;
}
/** How far apart two colours are (0–441). */
function distance(a: string, b: string): number {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  return Math.hypot(r1 - r2, g1 - g2, b1 - b2);
}
const METAL_WORDS: Record<string, string> = {
  gold: '#c99d45',
  brass: '#b98f42',
  copper: '#b0683e',
  silver: '#c3c7cc',
};
const LEATHERS = ['#8a4a26', '#5f3422', '#a9733f', '#5a2028', '#2b2826'];
const MATERIALS: [RegExp, string][] = [
  [/\bdenim\b/, '#4f6d96'],
  [/\bbark-?cloth\b/, '#9a5833'],
  [/\braffia\b|\bstraw\b/, '#d2b075'],
  [/\blinen\b/, '#d5c6a8'],
  [/\bwool\b/, '#373b46'],
  [/\bgabardine\b/, '#b89e70'],
  [/\bsuede\b/, '#9b5a45'],
  [/\bcrochet/, '#ece0c6'],
  [/\bcanvas\b/, '#ddcfb2'],
  [/\bbone\b/, '#e8dfcb'],
  [/\bhorn\b/, '#4a3226'],
];
/** For products whose words name no colour: a quiet fashion palette. */
const FALLBACK = [
  '#2f3a55',
  '#7d8866',
  '#b4694a',
  '#8c4652',
  '#c49a55',
  '#345c55',
  '#5b4a66',
  '#2a2829',
];
const WAX: string[][] = [
  ['#2c3a62', '#d39a3b', '#b3543a', '#efe2c4'],
  ['#c8923a', '#2c3a62', '#efe2c4', '#9b3f2a'],
  ['#1f5849', '#d8a53c', '#c0613f', '#efe2c4'],
  ['#a9533a', '#efe2c4', '#27303f', '#d39a3b'],
  ['#e8d8b8', '#a9533a', '#2c3a62', '#c8923a'],
  ['#5e2030', '#d39a3b', '#2f6466', '#efe2c4'],
];
const WOOD = '#b98d5d';
const BEADS = ['#c99d45', '#b15b3c', '#2f6466', '#ecdfc5', '#2e3b63', '#6b2233'];

function wordsIn(text: string, dict: Record<string, string>): string[] {
  const found: [number, string][] = [];
  for (const [word, colour] of Object.entries(dict)) {
    const at = text.search(new RegExp(`\\b${word}\\b`));
    if (at >= 0) found.push([at, colour]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

// ---------------------------------------------------------------- document & look

type Doc = { defs: string[]; n: number; shaded: Map<string, string> };
const newDoc = (): Doc => ({ defs: [], n: 0, shaded: new Map() });
const uid = (doc: Doc, p: string) => `${p}${doc.n++}`;

type Look = {
  doc: Doc;
  name: string;
  text: string;
  h: number;
  /** Every colour word found, name first. */
  colours: string[];
  base: string;
  fill: string;
  line: string;
  accent: string;
  metal: string;
  sheen: boolean;
  wax: string[];
  /** A many-coloured print (wax print, stripes) rather than one colour with a texture. */
  printed: boolean;
};

function waxPattern(doc: Doc, pal: string[], motif: number, size: number, rot: number): string {
  const [g, a, b, c] = [pick(pal, 0), pick(pal, 1), pick(pal, 2), pick(pal, 3)];
  const corners = (r: number, f: string) =>
    [0, 100]
      .flatMap((x) => [0, 100].map((y) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${f}"/>`))
      .join('');
  const motifs = [
    `<circle cx="50" cy="50" r="34" fill="${a}"/><circle cx="50" cy="50" r="22" fill="${b}"/><circle cx="50" cy="50" r="10" fill="${c}"/>${corners(10, c)}`,
    `<path d="M50 4L96 50L50 96L4 50Z" fill="${a}"/><path d="M50 24L76 50L50 76L24 50Z" fill="${b}"/><circle cx="50" cy="50" r="8" fill="${c}"/>${corners(6, b)}`,
    `<g fill="${a}"><ellipse cx="50" cy="27" rx="12" ry="21"/><ellipse cx="50" cy="73" rx="12" ry="21"/><ellipse cx="27" cy="50" rx="21" ry="12"/><ellipse cx="73" cy="50" rx="21" ry="12"/></g><circle cx="50" cy="50" r="10" fill="${b}"/>${corners(15, c)}`,
    `<path d="M-5 32L25 8L50 32L75 8L105 32M-5 82L25 58L50 82L75 58L105 82" fill="none" stroke="${a}" stroke-width="12"/><circle cx="25" cy="36" r="7" fill="${c}"/><circle cx="75" cy="86" r="7" fill="${c}"/><circle cx="75" cy="36" r="5" fill="${b}"/><circle cx="25" cy="86" r="5" fill="${b}"/>`,
    `<path d="M0 50A25 25 0 0 1 50 50ZM50 50A25 25 0 0 1 100 50ZM-25 100A25 25 0 0 1 25 100ZM25 100A25 25 0 0 1 75 100ZM75 100A25 25 0 0 1 125 100Z" fill="${a}"/><path d="M12 50A13 13 0 0 1 38 50M62 50A13 13 0 0 1 88 50M37 100A13 13 0 0 1 63 100" fill="none" stroke="${c}" stroke-width="6"/>`,
    `<rect x="8" y="8" width="36" height="36" fill="${a}"/><rect x="56" y="56" width="36" height="36" fill="${a}"/><circle cx="75" cy="25" r="15" fill="none" stroke="${b}" stroke-width="7"/><circle cx="25" cy="75" r="15" fill="none" stroke="${b}" stroke-width="7"/><circle cx="26" cy="26" r="7" fill="${c}"/><circle cx="74" cy="74" r="7" fill="${c}"/>`,
  ];
  const id = uid(doc, 'w');
  doc.defs.push(
    `<pattern id="${id}" width="100" height="100" patternUnits="userSpaceOnUse" patternTransform="rotate(${rot}) scale(${size / 100})"><rect width="100" height="100" fill="${g}"/>${pick(motifs, motif)}</pattern>`,
  );
  return `url(#${id})`;
}

/** A simple repeating tile; `body` is drawn over a `ground` rect. */
function tile(doc: Doc, w: number, h: number, ground: string, body: string, tf = ''): string {
  const id = uid(doc, 't');
  const t = tf ? ` patternTransform="${tf}"` : '';
  const g = ground ? `<rect width="${w}" height="${h}" fill="${ground}"/>` : '';
  doc.defs.push(
    `<pattern id="${id}" width="${w}" height="${h}" patternUnits="userSpaceOnUse"${t}>${g}${body}</pattern>`,
  );
  return `url(#${id})`;
}
const stripes = (doc: Doc, ground: string, ink: string, period: number, w: number, rot = 0) =>
  tile(
    doc,
    period,
    period,
    ground,
    `<rect width="${period}" height="${w}" fill="${ink}"/>`,
    rot ? `rotate(${rot})` : '',
  );
const weave = (doc: Doc, c: string, s = 22) =>
  tile(
    doc,
    s * 2,
    s * 2,
    c,
    `<path d="M0 0h${s}v${s}H0zM${s} ${s}h${s}v${s}H${s}z" fill="${light(c, 0.18)}"/><path d="M0 ${s / 2}h${s}M${s} ${s * 1.5}h${s}M${s * 1.5} 0v${s}M${s / 2} ${s}v${s}" stroke="${dark(c, 0.22)}" stroke-width="1.5"/>`,
  );
const barkTex = (doc: Doc, c: string) =>
  tile(
    doc,
    120,
    48,
    c,
    `<path d="M0 8Q30 2 60 10T120 8M0 26Q40 20 70 28T120 24M0 40Q30 46 60 38T120 40" fill="none" stroke="${dark(c, 0.25)}" stroke-width="2.5" opacity=".7"/><path d="M0 17Q30 12 60 19T120 16M0 33Q30 38 70 31T120 33" fill="none" stroke="${light(c, 0.25)}" stroke-width="2" opacity=".6"/>`,
    'rotate(-8)',
  );
const beadTex = (doc: Doc, cols: string[]) =>
  tile(
    doc,
    32,
    32,
    dark(pick(cols, 0), 0.5),
    [0, 1, 2, 3]
      .map(
        (i) =>
          `<circle cx="${8 + (i % 2) * 16}" cy="${8 + Math.floor(i / 2) * 16}" r="7" fill="${pick(cols, i)}"/>`,
      )
      .join('') +
      '<path d="M5 5h2M21 5h2M5 21h2M21 21h2" stroke="#fff" stroke-opacity=".6" stroke-width="2"/>',
  );

const WAXY = products.filter((p) => /\b(ankara|kitenge|wax)\b/i.test(p.name)).map((p) => p.name);

/**
 * The product's colours, fill and trims. `colour` (one of `p.colours`) leads when given: it becomes
 * the base (plain fabric, leather, denim, rib) or the ground of the print (wax prints keep their
 * motifs, recoloured around it; stripes are inked in it, or laid on it when the stripe is fine).
 */
function lookFor(doc: Doc, p: SeedProduct, colour: string | null = null): Look {
  const name = p.name.toLowerCase();
  const desc = p.description.toLowerCase();
  const h = hash(p.name);
  const named = [...wordsIn(name, COLOUR_WORDS), ...wordsIn(desc, COLOUR_WORDS)];
  const chosen = colour ? fabricTone(colour) : undefined;
  const colours = chosen ? [chosen, ...named.filter((c) => distance(c, chosen) > 60)] : named;
  const metals = [...wordsIn(name, METAL_WORDS), ...wordsIn(desc, METAL_WORDS)];
  const nameMaterial = name.replace(/barkcloth-(trim|collar)/, '');
  let material: string | undefined;
  for (const text of [nameMaterial, desc]) {
    let best = Number.POSITIVE_INFINITY;
    for (const [re, c] of [...MATERIALS, [/\bleather\b/, pick(LEATHERS, h)] as [RegExp, string]]) {
      const at = text.search(re);
      if (at >= 0 && at < best) {
        best = at;
        material = c;
      }
    }
    if (material) break;
  }
  const jewel = p.category === 'Jewellery';
  const base =
    chosen ??
    (jewel ? metals[0] : undefined) ??
    colours[0] ??
    material ??
    metals[0] ??
    pick(FALLBACK, h >> 3);
  // wax prints: the n-th printed product gets the n-th palette/motif pairing, so no two repeat
  const n = WAXY.indexOf(p.name);
  const palette = [...new Set([...colours, ...pick(WAX, n >= 0 ? n : h >> 5)])];
  // a chosen colour is the ground; the motifs keep clear of it
  const wax = (
    chosen ? [chosen, ...palette.filter((c) => c !== chosen && distance(c, chosen) > 70)] : palette
  ).slice(0, 4);
  const waxy = n >= 0;
  let fill = base;
  if (waxy)
    fill = waxPattern(
      doc,
      wax,
      (n * 5 + Math.floor(n / 6)) % 6,
      70 + (h % 4) * 12,
      pick([0, 0, 45, 12], h >> 9),
    );
  else if (chosen && (/stripe/.test(name) || /\bstripe\b/.test(desc))) {
    // fine stripes are laid on the colour; bold ones are inked in it on cream
    const fine = /\bfine\b/.test(desc);
    const cream = COLOUR_WORDS.cream ?? '#ecdfc5';
    const contrast =
      named.find((c) => distance(c, chosen) > 90) ??
      (lum(chosen) > 0.5 ? dark(chosen, 0.45) : cream);
    fill = fine
      ? stripes(doc, chosen, contrast, 26, 5, 90)
      : stripes(doc, distance(chosen, cream) > 60 ? cream : '#fbf8f2', chosen, 46, 17);
  } else if (/stripe/.test(name) || /\bstripe\b/.test(desc)) {
    const ground =
      colours.length > 1
        ? lum(pick(colours, 0)) > lum(pick(colours, 1))
          ? pick(colours, 0)
          : pick(colours, 1)
        : (COLOUR_WORDS.cream ?? base);
    const ink = colours.find((c) => c !== ground) ?? base;
    fill = /\bfine\b/.test(desc)
      ? stripes(doc, ground, ink, 26, 5, 90)
      : stripes(doc, ground, ink, 46, 17);
  } else if (/denim/.test(name))
    fill = tile(
      doc,
      8,
      8,
      base,
      `<path d="M0 8L8 0" stroke="${light(base, 0.16)}" stroke-width="2"/>`,
    );
  else if (/rib/.test(name))
    fill = tile(
      doc,
      12,
      12,
      base,
      `<rect width="4" height="12" fill="${lum(base) < 0.1 ? light(base, 0.07) : dark(base, 0.12)}"/>`,
    );
  else if (/raffia|straw/.test(name)) fill = weave(doc, base);
  else if (/woven|plaited/.test(name))
    fill = tile(
      doc,
      16,
      16,
      base,
      `<path d="M0 4Q8 0 16 4M0 12Q8 8 16 12" fill="none" stroke="${dark(base, 0.35)}" stroke-width="3"/>`,
      'rotate(20)',
    );
  else if (/^barkcloth (?!scrunchie)/.test(name)) fill = barkTex(doc, base);
  else if (/crochet/.test(name))
    fill = tile(
      doc,
      30,
      30,
      base,
      `<circle cx="15" cy="15" r="7" fill="${dark(base, 0.32)}"/><circle cx="0" cy="0" r="4" fill="${dark(base, 0.2)}"/><circle cx="30" cy="0" r="4" fill="${dark(base, 0.2)}"/><circle cx="0" cy="30" r="4" fill="${dark(base, 0.2)}"/><circle cx="30" cy="30" r="4" fill="${dark(base, 0.2)}"/>`,
    );
  else if (/pouch|wristlet/.test(name)) fill = beadTex(doc, BEADS.slice(h % 3));
  const accent =
    (/bark-?cloth/.test(desc + name) ? '#9a5833' : undefined) ??
    colours.find((c) => c !== base) ??
    (lum(base) > 0.6 ? '#2a2e3d' : '#d8c29a');
  return {
    doc,
    name,
    text: `${name} ${desc}`,
    h,
    colours,
    base,
    fill,
    line: dark(base, lum(base) < 0.2 ? 0.7 : 0.5),
    accent,
    metal: metals[0] ?? METAL_WORDS.brass ?? '#b98f42',
    sheen: /satin|silk|charmeuse|polished/.test(`${name} ${desc.slice(0, 60)}`),
    wax,
    printed: waxy || /stripe/.test(name) || /\bstripe\b/.test(desc),
  };
}

// ---------------------------------------------------------------- drawing helpers

/** [x, y] is a line to, [cx, cy, x, y] a quadratic curve to. */
type Pt = [number, number] | [number, number, number, number];
const end = (p: Pt): [number, number] => (p.length === 2 ? [p[0], p[1]] : [p[2], p[3]]);
const seg = (p: Pt) => (p.length === 2 ? `L${p[0]} ${p[1]}` : `Q${p[0]} ${p[1]} ${p[2]} ${p[3]}`);

/** An open or closed path through the points. */
function path(pts: Pt[], close = true): string {
  const [x, y] = end(pick(pts, 0));
  return `M${x} ${y}${pts.slice(1).map(seg).join('')}${close ? 'Z' : ''}`;
}

/** A shape symmetric about x = cx, given its right half from top centre to bottom centre. */
function sym(pts: Pt[], cx = 400): string {
  const m = (x: number) => 2 * cx - x;
  let d = path(pts, false);
  const [ex, ey] = end(pick(pts, -1));
  if (ex !== cx) d += `L${m(ex)} ${ey}`;
  for (let i = pts.length - 1; i >= 1; i--) {
    const p = pick(pts, i);
    const [px, py] = end(pick(pts, i - 1));
    d += p.length === 2 ? `L${m(px)} ${py}` : `Q${m(p[0])} ${p[1]} ${m(px)} ${py}`;
  }
  return `${d}Z`;
}

/** Mirror a whole path string about x = 400 (for left-hand details). */
function flip(d: string): string {
  return d
    .replace(/H(-?[\d.]+)/g, (_m, x: string) => `H${800 - Number(x)}`)
    .replace(
      /([MLQTCA]?)(-?[\d.]+) (-?[\d.]+)/g,
      (_m, c: string, x: string, y: string) => `${c}${800 - Number(x)} ${y}`,
    );
}

/** Beads as round-capped zero-length strokes, one path per colour (small files). */
function beadRow(
  pts: number[][],
  cols: string[],
  size: number,
  len = 0,
  angle: number[] = [],
): string {
  // relative moves keep the path data short: "m12 3h0" is one bead
  const by = new Map<string, { d: string; x: number; y: number }>();
  const all = { d: '', x: 0, y: 0 };
  const add = (p: { d: string; x: number; y: number }, x: number, y: number, seg: string) => {
    p.d += p.d ? `m${x - p.x} ${y - p.y}${seg}` : `M${x} ${y}${seg}`;
    p.x = x;
    p.y = y;
  };
  pts.forEach(([px = 0, py = 0], i) => {
    const a = angle[i] ?? 0;
    const dx = Math.round(len * Math.cos(a));
    const dy = Math.round(len * Math.sin(a));
    const x = Math.round(px - dx / 2);
    const y = Math.round(py - dy / 2);
    const seg = len ? `l${dx} ${dy}` : 'h0';
    const c = pick(cols, i);
    const p = by.get(c) ?? { d: '', x: 0, y: 0 };
    by.set(c, p);
    add(p, x, y, seg);
    add(all, x, y, seg);
    if (len) {
      p.x += dx;
      p.y += dy;
      all.x += dx;
      all.y += dy;
    }
  });
  let s = `<path d="${all.d}" stroke="#1d1a1c" stroke-opacity=".35" stroke-width="${size + 3}"/>`;
  for (const [c, p] of by) s += `<path d="${p.d}" stroke="${c}" stroke-width="${size}"/>`;
  return `${s}<path d="${all.d}" stroke="#fff" stroke-opacity=".35" stroke-width="${size / 3}" transform="translate(${-size / 5} ${-size / 5})"/>`;
}

/** A plain colour with the volume shading built in (one path instead of two). */
function shaded(doc: Doc, c: string): string {
  let id = doc.shaded.get(c);
  if (!id) {
    id = uid(doc, 's');
    doc.shaded.set(c, id);
    doc.defs.push(
      `<linearGradient id="${id}" x1="0" x2="1"><stop offset="0" stop-color="${light(c, 0.16)}"/><stop offset=".45" stop-color="${c}"/><stop offset=".7" stop-color="${c}"/><stop offset="1" stop-color="${dark(c, 0.2)}"/></linearGradient>`,
    );
  }
  return `url(#${id})`;
}

let dim = 0;
/** A drawn piece of a garment, as `piece` was called: kept to redraw the garment from behind. */
type Caught = { d: string; fill: string; sheen: boolean };
let caught: Caught[] | null = null;
/** Set while drawing a close detail: a fine twill laid over every piece. */
let grain = '';
const GRAIN = 0.05;
/** A filled piece of fabric or leather with a soft outline, volume shading and optional sheen. */
function piece(L: Look, d: string, fill = L.fill, sheen = L.sheen): string {
  caught?.push({ d, fill, sheen });
  const plain = fill.startsWith('#');
  let s = `<path d="${d}" fill="${plain ? shaded(L.doc, fill) : fill}" stroke="${L.line}"/>`;
  if (!plain && fill !== 'none') s += `<path d="${d}" fill="url(#sh)"/>`;
  if (sheen) s += `<path d="${d}" fill="url(#sn)"/>`;
  if (dim) s += `<path d="${d}" fill="#1d1a1c" fill-opacity="${dim}"/>`;
  if (grain && fill !== 'none') s += `<path d="${d}" fill="${grain}"/>`;
  return s;
}
const shade = (d: string, op = 0.3) => `<path d="${d}" fill="#1d1a1c" fill-opacity="${op}"/>`;
const inner = (L: Look, d: string, op = 0.42) => `<path d="${d}" fill="${L.fill}"/>${shade(d, op)}`;
const ln = (L: Look, d: string, w = 3, op = 0.45, col = L.line) =>
  `<path d="${d}" fill="none" stroke="${col}" stroke-width="${w}" stroke-opacity="${op}"/>`;
const stitch = (d: string, col: string, w = 2.5) =>
  `<path d="${d}" fill="none" stroke="${col}" stroke-width="${w}" stroke-dasharray="8 6"/>`;
const dot = (cx: number, cy: number, r: number, fill: string, extra = '') =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"${extra}/>`;
const button = (cx: number, cy: number, c: string, r = 7) =>
  `${dot(cx, cy, r, c, ` stroke="${dark(c, 0.4)}" stroke-width="1.5"`)}${dot(cx - r / 3, cy - r / 3, r / 3, '#fff', ' fill-opacity=".5"')}`;
function metalGrad(doc: Doc, c: string, radial = false): string {
  const id = uid(doc, 'm');
  const stops = `<stop offset="0" stop-color="${light(c, 0.55)}"/><stop offset=".45" stop-color="${c}"/><stop offset="1" stop-color="${dark(c, 0.45)}"/>`;
  doc.defs.push(
    radial
      ? `<radialGradient id="${id}" cx=".35" cy=".3" r=".8">${stops}</radialGradient>`
      : `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">${stops}</linearGradient>`,
  );
  return `url(#${id})`;
}
function clip(doc: Doc, d: string, body: string): string {
  const id = uid(doc, 'c');
  doc.defs.push(`<clipPath id="${id}"><path d="${d}"/></clipPath>`);
  return `<g clip-path="url(#${id})">${body}</g>`;
}

// ---------------------------------------------------------------- hangers

/** Set while drawing a close detail: the hook would only crowd the frame. */
let hookless = false;
const HOOK_PATH =
  '<path d="M400 214V172C400 156 420 148 420 128C420 110 406 100 392 102C380 104 374 114 374 122" fill="none" stroke="#8f8b84" stroke-width="6"/>';
const hook = () => (hookless ? '' : HOOK_PATH);
function hanger(w = 122): string {
  return `${hook()}<path d="M${400 - w} 268Q400 190 ${400 + w} 268L${396 + w} 280Q400 206 ${404 - w} 280Z" fill="${WOOD}" stroke="${dark(WOOD, 0.35)}" stroke-width="2"/>`;
}
function clipHanger(): string {
  const clipAt = (x: number) =>
    `<rect x="${x - 14}" y="214" width="28" height="54" rx="4" fill="#a7a29a" stroke="#6f6a64" stroke-width="2"/><path d="M${x - 10} 232h20" stroke="#6f6a64" stroke-width="2"/>`;
  return `${hook()}<rect x="240" y="206" width="320" height="16" rx="8" fill="${WOOD}" stroke="${dark(WOOD, 0.35)}" stroke-width="2"/>${clipAt(300)}${clipAt(500)}`;
}

// ---------------------------------------------------------------- dresses

const NECK: Pt[] = [
  [400, 240],
  [430, 238, 452, 222],
];

function wrapDress(L: Look): string {
  const d = sym([
    ...NECK,
    [528, 244],
    [568, 256, 592, 302],
    [588, 322, 568, 316],
    [552, 334, 536, 322],
    [520, 334],
    [504, 400, 488, 466],
    [540, 640, 600, 842],
    [500, 872, 400, 868],
  ]);
  const v = 'M352 224Q376 330 402 430L448 224Q400 244 352 224Z';
  const band = 'M310 462Q400 476 490 462L492 488Q400 500 308 488Z';
  const ties =
    'M322 476Q300 540 286 628L308 632Q318 560 334 484ZM330 480Q340 560 352 612L372 606Q354 540 340 478Z';
  return `${hanger()}${piece(L, d)}${inner(L, v)}${ln(L, 'M448 224Q420 360 322 464', 4, 0.6)}${ln(L, 'M330 488Q420 640 470 862', 3.5, 0.5)}${piece(L, band)}${piece(L, ties)}${dot(330, 476, 14, L.fill, ` stroke="${L.line}" stroke-width="2.5"`)}${ln(L, 'M500 540Q530 700 560 826M456 520Q470 680 500 850', 2.5, 0.25)}`;
}

function shirtDress(L: Look): string {
  const d = sym([
    ...NECK,
    [532, 246],
    [570, 264, 592, 336],
    [560, 350],
    [522, 336],
    [514, 420, 510, 476],
    [524, 640, 548, 830],
    [480, 846, 400, 838],
  ]);
  const collar = 'M404 274L446 222L478 250L488 274L442 304Z';
  const belt = 'M290 470Q400 482 510 470L512 494Q400 506 288 494Z';
  const ties =
    'M392 490Q380 560 372 610L392 612Q398 560 404 492ZM404 492Q418 550 430 596L448 588Q428 540 414 488Z';
  const btns = [320, 390, 440, 560, 640, 720, 790]
    .map((y) => button(400, y, '#d9c7a4', 6))
    .join('');
  return `${hanger()}${piece(L, d)}${inner(L, 'M370 228L400 300L430 228Q400 242 370 228Z')}${piece(L, collar)}${piece(L, flip(collar))}${ln(L, 'M400 300V836', 3, 0.5)}${btns}${ln(L, 'M566 334L590 324M234 334L210 324', 3, 0.5)}${piece(L, belt)}${piece(L, ties)}${dot(400, 484, 13, L.fill, ` stroke="${L.line}" stroke-width="2.5"`)}${ln(L, 'M330 330h46v44h-46z', 2.5, 0.45)}`;
}

function gown(L: Look): string {
  const d = sym([
    [400, 232],
    [430, 230, 458, 222],
    [498, 184, 548, 190],
    [600, 198, 604, 262],
    [606, 306, 584, 328],
    [548, 338, 522, 328],
    [500, 400, 484, 470],
    [570, 640, 640, 908],
    [520, 930, 400, 926],
  ]);
  const neck = 'M358 228V296Q358 310 372 310H428Q442 310 442 296V228Q400 240 358 228Z';
  const sash = 'M312 452Q400 468 488 452L494 504Q400 520 306 504Z';
  const bow =
    'M330 478Q270 430 236 452Q220 480 244 506Q280 520 330 492ZM322 494Q300 600 276 700L304 706Q330 610 342 500ZM336 494Q352 590 372 676L398 668Q370 580 348 492Z';
  const sashFill = L.accent;
  return `${hanger()}${piece(L, d)}${shade(neck, 0.12)}${ln(L, neck, 3, 0.5)}${ln(L, 'M470 226Q520 250 524 326M330 226Q280 250 276 326', 2.5, 0.35)}${piece(L, sash, sashFill)}${piece(L, bow, sashFill)}${dot(334, 486, 16, sashFill, ` stroke="${dark(sashFill, 0.4)}" stroke-width="2"`)}${ln(L, 'M450 520Q480 700 500 910M500 540Q550 740 590 896M360 520Q350 700 330 910', 2.5, 0.22)}`;
}

function maxiDress(L: Look): string {
  const d = sym([
    ...NECK,
    [520, 242],
    [560, 252, 578, 292],
    [566, 312, 550, 304],
    [540, 322, 522, 322],
    [502, 400, 486, 462],
    [530, 640, 574, 880],
    [562, 902, 540, 888],
    [520, 906, 494, 890],
    [470, 908, 446, 892],
    [424, 908, 400, 894],
  ]);
  const v = 'M362 224Q380 300 400 344Q420 300 438 224Q400 240 362 224Z';
  const sash = 'M314 454Q400 468 486 454L488 480Q400 492 312 480Z';
  const ends =
    'M392 478Q386 560 378 650L398 652Q402 560 406 480ZM404 480Q420 560 438 630L458 622Q432 550 414 476Z';
  return `${hanger()}${piece(L, d)}${inner(L, v)}${piece(L, sash, L.accent)}${piece(L, ends, L.accent)}${dot(402, 468, 13, L.accent, ` stroke="${dark(L.accent, 0.4)}" stroke-width="2"`)}${ln(L, 'M446 500Q466 700 484 890M490 520Q520 720 546 870M350 500Q330 700 306 884', 2.5, 0.25)}`;
}

function slipDress(L: Look): string {
  const back = 'M316 304Q400 316 484 304L492 360H308Z';
  const d = sym([
    [400, 356],
    [442, 354, 464, 304],
    [476, 302],
    [496, 326],
    [520, 470, 580, 830],
    [490, 846, 400, 842],
  ]);
  const strap = (x1: number, x2: number) => ln(L, `M${x1} 222L${x2} 304`, 6, 1, dark(L.base, 0.12));
  return `${hanger()}${strap(448, 470)}${strap(352, 330)}${inner(L, back)}${piece(L, d)}${ln(L, 'M470 420Q500 620 530 830M420 420Q430 640 440 838M340 440Q320 640 290 830', 2.5, 0.22)}`;
}

function tieredDress(L: Look): string {
  const bodice = sym([
    ...NECK,
    [520, 240],
    [552, 250, 574, 300],
    [548, 316],
    [518, 312],
    [506, 390, 498, 444],
    [400, 444],
  ]);
  const tier = (y0: number, y1: number, w0: number, w1: number) =>
    sym([
      [400, y0],
      [400 + w0, y0],
      [400 + w1, y1],
      [400 + w1 * 0.5, y1 + 10, 400, y1 + 4],
    ]);
  const gather = (y: number, w: number) =>
    ln(
      L,
      Array.from({ length: 9 }, (_, i) => {
        const x = 400 - w + ((2 * w) / 8) * i;
        return `M${x} ${y + 4}v22`;
      }).join(''),
      2,
      0.35,
    );
  return `${hanger()}${piece(L, tier(712, 862, 196, 246))}${gather(712, 190)}${piece(L, tier(578, 716, 150, 196))}${gather(578, 144)}${piece(L, tier(440, 582, 104, 150))}${gather(440, 98)}${piece(L, bodice)}${inner(L, 'M364 226Q400 288 436 226Q400 240 364 226Z')}${ln(L, 'M548 314L572 304M252 314L228 304', 3, 0.5)}`;
}

function shiftDress(L: Look): string {
  const d = sym([
    ...NECK,
    [528, 244],
    [556, 252, 568, 290],
    [540, 304],
    [522, 302],
    [528, 500, 546, 806],
    [400, 810],
  ]);
  return `${hanger()}${piece(L, d)}${inner(L, 'M366 226Q400 276 434 226Q400 240 366 226Z')}${ln(L, 'M520 370L470 388M280 370L330 388M470 520V700M330 520V700', 2.5, 0.35)}`;
}

// ---------------------------------------------------------------- tops

function shirt(L: Look): string {
  const trim = /barkcloth/.test(L.name) ? barkTex(L.doc, '#9a5833') : L.fill;
  const d = sym([
    ...NECK,
    [534, 246],
    [574, 330, 600, 600],
    [562, 612],
    [548, 450, 526, 346],
    [530, 500, 534, 664],
    [470, 694, 400, 676],
  ]);
  const collar = 'M404 274L448 222L474 240L480 262L436 302Z';
  const cuff = 'M562 612L600 600L594 560L556 572Z';
  const btns = [312, 380, 450, 520, 590].map((y) => button(400, y, '#efe6d4', 6)).join('');
  return `${hanger()}${piece(L, d)}${inner(L, 'M372 228L400 296L428 228Q400 242 372 228Z')}${piece(L, collar, trim)}${piece(L, flip(collar), trim)}${piece(L, cuff, trim)}${piece(L, flip(cuff), trim)}${piece(L, 'M320 338h54v58l-27 10l-27-10z', trim)}${ln(L, 'M406 296V674', 3, 0.45)}${btns}`;
}

function peplum(L: Look): string {
  const d = sym([
    ...NECK,
    [526, 244],
    [564, 300, 590, 424],
    [554, 436],
    [536, 360, 520, 334],
    [500, 400, 488, 470],
    [540, 500, 586, 580],
    [546, 596, 510, 584],
    [470, 604, 436, 590],
    [420, 600, 400, 594],
  ]);
  return `${hanger()}${piece(L, d)}${inner(L, 'M368 226Q400 274 432 226Q400 240 368 226Z')}${ln(L, 'M312 470Q400 480 488 470', 3.5, 0.55)}${ln(L, 'M510 490Q520 540 530 586M450 480Q454 540 460 594M290 490Q280 540 270 586M350 480Q346 540 340 594', 2.5, 0.3)}`;
}

function cami(L: Look): string {
  const back = 'M320 300Q400 310 480 300L492 350H308Z';
  const d = sym([
    [400, 336],
    [440, 334, 466, 298],
    [478, 298],
    [494, 320],
    [502, 480, 512, 612],
    [460, 626, 400, 620],
  ]);
  const strap = (x1: number, x2: number) => ln(L, `M${x1} 222L${x2} 298`, 5, 1, dark(L.base, 0.15));
  return `${hanger()}${strap(448, 472)}${strap(352, 328)}${inner(L, back, 0.25)}${piece(L, d)}${ln(L, 'M346 312Q400 372 454 312M366 306Q400 344 434 306', 3, 0.35)}${ln(L, 'M470 400Q480 520 486 610M340 420Q330 520 324 610', 2.5, 0.2)}`;
}

function tee(L: Look): string {
  const boat = /boat|breton/.test(L.text);
  const three = /three-quarter/.test(L.text);
  const d = sym([
    [400, 238],
    boat ? [440, 236, 478, 228] : [430, 236, 450, 224],
    [528, 244],
    ...(three
      ? ([
          [566, 330, 592, 486],
          [554, 494],
          [540, 400, 522, 344],
        ] as Pt[])
      : ([
          [562, 256, 588, 320],
          [554, 338],
          [522, 322],
        ] as Pt[])),
    [514, 440, 518, 580],
    [460, 590, 400, 586],
  ]);
  const neck = boat
    ? 'M322 228Q400 252 478 228Q400 240 322 228Z'
    : 'M370 226Q400 264 430 226Q400 240 370 226Z';
  return `${hanger()}${piece(L, d)}${inner(L, neck, 0.35)}${ln(L, boat ? 'M326 232Q400 262 474 232' : 'M364 226Q400 276 436 226', 6, 0.35)}`;
}

function offShoulder(L: Look): string {
  const d = sym([
    [400, 306],
    [528, 300],
    [604, 300, 606, 358],
    [602, 400, 570, 410],
    [566, 424],
    [540, 410],
    [512, 376],
    [508, 470, 520, 562],
    [460, 574, 400, 570],
  ]);
  const ruffle = `M262 292H538L540 322${Array.from({ length: 10 }, (_, i) => {
    const x = 540 - (i + 1) * 28;
    return `Q${x + 14} 350 ${x} 322`;
  }).join('')}Z`;
  const loops = ln(L, 'M300 300L312 266M500 300L488 266', 4, 0.8, '#e9dfcc');
  return `${hanger()}${loops}${piece(L, d)}${piece(L, ruffle)}${ln(L, 'M560 410L600 396M240 410L200 396', 5, 0.5)}${ln(L, 'M470 420Q480 500 486 566M330 420Q320 500 314 566', 2.5, 0.25)}`;
}

function blouse(L: Look): string {
  const pleats = tile(
    L.doc,
    14,
    14,
    '',
    '<rect width="5" height="14" fill="#1d1a1c" fill-opacity=".18"/><rect x="6" width="2" height="14" fill="#fff" fill-opacity=".14"/>',
  );
  const body = sym([
    [400, 232],
    [446, 232],
    [530, 248],
    [524, 346],
    [530, 500, 536, 656],
    [470, 676, 400, 670],
  ]);
  const sleeve = 'M530 248Q574 330 600 604L564 616Q552 450 524 346Z';
  return `${hanger()}<g opacity=".72">${piece(L, sleeve)}${piece(L, flip(sleeve))}</g>${ln(L, 'M566 612L600 600M234 612L200 600', 6, 0.6)}${piece(L, body)}<path d="${body}" fill="${pleats}"/>${piece(L, 'M372 200H428V240Q400 248 372 240Z')}`;
}

// ---------------------------------------------------------------- trousers & skirts

function trousers(legW: number, hemW: number, hemY: number, rise = 470): string {
  return sym([
    [400, 252],
    [530, 252],
    [534, 296],
    [540 + legW * 0.3, 380, 540 + legW * 0.4, 440],
    [400 + hemW + 10, hemY],
    [414, hemY],
    [408, (hemY + rise) / 2, 404, rise],
    [400, rise - 6],
  ]);
}
const WAIST = 'M270 296Q400 300 530 296';

function wideLeg(L: Look): string {
  const d = trousers(30, 196, 904, 474);
  return `${clipHanger()}${piece(L, d)}${ln(L, WAIST, 3, 0.5)}${button(414, 266, dark(L.base, 0.25), 6)}${button(414, 284, dark(L.base, 0.25), 6)}${ln(L, 'M470 300L478 420M330 300L322 420M500 440Q506 700 516 898M300 440Q294 700 284 898', 2.5, 0.35)}`;
}
function drawstring(L: Look): string {
  const d = trousers(12, 134, 894, 480);
  const bow = 'M400 292Q370 270 356 286Q350 302 372 304ZM400 292Q430 270 444 286Q450 302 428 304Z';
  return `${clipHanger()}${piece(L, d)}${ln(L, `${WAIST}M300 256v38M340 256v40M460 256v40M500 256v38`, 2.5, 0.35)}${piece(L, bow, light(L.base, 0.35), false)}${ln(L, 'M392 298Q384 340 376 370M408 298Q418 340 426 368', 3.5, 0.8, light(L.base, 0.1))}${ln(L, 'M528 300L552 400M272 300L248 400M480 480Q486 700 496 888M320 480Q314 700 304 888', 2.5, 0.3)}`;
}
function cigarette(L: Look): string {
  const d = sym([
    [400, 252],
    [520, 252],
    [522, 292],
    [540, 360, 538, 430],
    [514, 846],
    [426, 846],
    [410, 600, 404, 470],
    [400, 464],
  ]);
  return `${clipHanger()}${piece(L, d)}${ln(L, 'M280 292Q400 296 520 292', 3, 0.5)}${button(414, 272, dark(L.base, 0.3), 6)}${ln(L, 'M472 296L470 846M328 296L330 846', 2.5, 0.4, light(L.base, 0.4))}${ln(L, 'M516 300L534 380M284 300L266 380', 2.5, 0.35)}`;
}
function palazzo(L: Look): string {
  const d = sym([
    [400, 250],
    [530, 250],
    [534, 292],
    [620, 600, 660, 904],
    [418, 904],
    [410, 640, 404, 500],
    [400, 494],
  ]);
  return `${clipHanger()}${piece(L, d)}${ln(L, 'M270 292Q400 296 530 292', 4, 0.6)}${ln(L, 'M500 300Q540 600 560 896M300 300Q260 600 240 896M450 320Q470 600 480 896', 2.5, 0.3)}`;
}
function skirtShape(top: number, hemY: number, hemW: number, flare: number): string {
  return sym([
    [400, 252],
    [524, 252],
    [526, top],
    [528 + flare, (top + hemY) / 2, 400 + hemW, hemY],
    [400 + hemW / 2, hemY + 14, 400, hemY + 12],
  ]);
}
function pleatSkirt(L: Look): string {
  const d = skirtShape(292, 800, 220, 40);
  const folds = Array.from({ length: 12 }, (_, i) => {
    const t = i / 11;
    const x0 = 280 + t * 240;
    const x1 = 180 + t * 440;
    return `M${x0} 292L${x0 + 10} 292L${x1 + 18} 820L${x1} 820Z`;
  }).join('');
  return `${clipHanger()}${piece(L, d)}${clip(L.doc, d, shade(folds, 0.2))}${ln(L, 'M276 292Q400 296 524 292', 3.5, 0.55)}`;
}
function miniSkirt(L: Look): string {
  const d = skirtShape(290, 566, 188, 10);
  const top = '#d49a52';
  return `${clipHanger()}${piece(L, d)}${stitch('M280 284Q400 288 520 284M226 556Q400 590 574 556M406 296V572M296 300Q330 340 346 300M504 300Q470 340 454 300', top)}${ln(L, 'M276 292Q400 296 524 292M400 296V574', 3, 0.6)}${[330, 390, 450, 510].map((y) => button(414, y, '#b0683e', 6)).join('')}`;
}
function slipSkirt(L: Look): string {
  const d = sym([
    [400, 256],
    [516, 256],
    [518, 284],
    [546, 420, 550, 560],
    [560, 700, 580, 836],
    [490, 850, 400, 846],
  ]);
  return `${clipHanger()}${piece(L, d)}${ln(L, 'M284 282Q400 288 516 282', 3, 0.5)}${ln(L, 'M470 300Q500 560 520 840M430 300Q440 600 450 846M350 300Q330 560 300 840', 2.5, 0.22)}`;
}

// ---------------------------------------------------------------- outerwear

const SLEEVE: Pt[] = [
  [574, 340, 594, 620],
  [556, 630],
  [542, 470, 528, 350],
];

function blazer(L: Look): string {
  const linen = /linen/.test(L.name);
  const bark = /barkcloth/.test(L.name) ? barkTex(L.doc, '#9a5833') : L.fill;
  const d = sym([
    ...NECK,
    linen ? [530, 252] : [544, 244],
    ...SLEEVE,
    [534, 500, 540, 730],
    [400, 734],
  ]);
  const lapel = 'M438 226L452 222L486 322L470 332L492 352L404 514Z';
  const collar = 'M438 226L452 222L486 322L470 332Z';
  const pockets = linen
    ? `${piece(L, 'M430 580H518V662Q474 672 430 662Z')}${piece(L, flip('M430 580H518V662Q474 672 430 662Z'))}`
    : `${piece(L, 'M436 600L516 594L516 608L436 614Z', bark)}${piece(L, flip('M436 600L516 594L516 608L436 614Z'), bark)}${piece(L, 'M310 400L362 396V408L310 412Z', bark)}`;
  return `${hanger()}${piece(L, d)}${inner(L, 'M362 226L400 514L438 226Q400 240 362 226Z', 0.55)}${piece(L, lapel)}${piece(L, flip(lapel))}${piece(L, collar, bark)}${piece(L, flip(collar), bark)}${ln(L, 'M400 514V732', 3, 0.5)}${button(412, 540, dark(L.base, 0.4), 8)}${pockets}${ln(L, 'M560 600L588 596M240 600L212 596', 3, 0.4)}`;
}

function trench(L: Look): string {
  const lining = waxPattern(L.doc, pick(WAX, L.h), 2, 60, 0);
  const d = sym([
    ...NECK,
    [536, 248],
    [578, 380, 600, 660],
    [560, 670],
    [544, 480, 528, 352],
    [522, 470],
    [560, 700, 584, 884],
    [400, 888],
  ]);
  const lapel = 'M430 226L456 222L498 300L472 312L490 336L404 430Z';
  const belt = 'M276 464Q400 474 524 464L526 496Q400 506 274 496Z';
  const btns = [380, 420, 560, 640]
    .flatMap((y) => [button(356, y, dark(L.base, 0.45), 7), button(444, y, dark(L.base, 0.45), 7)])
    .join('');
  return `${hanger()}${piece(L, d)}<path d="M366 226L400 430L434 226Q400 240 366 226Z" fill="${lining}"/>${piece(L, lapel)}${piece(L, flip(lapel))}${ln(L, 'M456 222L540 250L532 330L480 336M404 430V886', 3, 0.45)}${btns}${piece(L, belt)}${piece(L, 'M356 462h40v40h-40z', 'none')}${ln(L, 'M560 640L596 630M240 640L204 630', 5, 0.5)}${ln(L, 'M480 520Q500 700 520 880M320 520Q300 700 280 880', 2.5, 0.25)}`;
}

function kimono(L: Look): string {
  const d = sym([
    [400, 232],
    [430, 230, 452, 222],
    [540, 240],
    [636, 300],
    [648, 530],
    [560, 546],
    [530, 440],
    [534, 800],
    [400, 806],
  ]);
  const band = 'M380 226L346 804L380 806L410 232Z';
  const bandFill = pick(L.wax, 0);
  return `${hanger()}${piece(L, d)}${inner(L, 'M380 226L350 806H450L420 226Q400 236 380 226Z', 0.5)}${piece(L, band, bandFill, false)}${piece(L, flip(band), bandFill, false)}${ln(L, 'M530 440L540 244M270 440L260 244', 2.5, 0.4)}`;
}

function denimJacket(L: Look): string {
  const top = '#d49a52';
  const d = sym([...NECK, [532, 246], ...SLEEVE, [530, 546], [400, 550]]);
  const collar = 'M404 272L448 222L492 250L500 282L440 316Z';
  const pocket = 'M428 350H492V398L460 410L428 398Z';
  const btns = [330, 400, 470, 526].map((y) => button(412, y, L.metal, 7)).join('');
  return `${hanger()}${piece(L, d)}${inner(L, 'M372 228L400 300L428 228Q400 242 372 228Z')}${piece(L, collar)}${piece(L, flip(collar))}${stitch('M276 312Q400 326 524 312M272 508H528M406 300V546M428 350H492V380L460 390L428 380Z', top)}${stitch(flip('M428 350H492V380L460 390L428 380Z'), top)}${piece(L, pocket)}${piece(L, flip(pocket))}${ln(L, 'M270 510H530M400 300V548', 3, 0.5)}${btns}${button(460, 388, L.metal, 5)}${button(340, 388, L.metal, 5)}${ln(L, 'M556 630L594 620M244 630L206 620', 5, 0.45)}`;
}

function bomber(L: Look): string {
  const rib = tile(L.doc, 10, 10, '#2a2e3d', '<rect width="4" height="10" fill="#3d4254"/>');
  const quilt = tile(
    L.doc,
    56,
    56,
    '',
    '<path d="M0 0L56 56M56 0L0 56" stroke="#1d1a1c" stroke-opacity=".35" stroke-width="2.5" stroke-dasharray="6 4"/>',
  );
  const d = sym([
    [400, 244],
    [432, 240, 452, 226],
    [532, 248],
    [586, 360, 598, 580],
    [564, 584],
    [548, 440, 528, 354],
    [540, 470, 532, 566],
    [400, 568],
  ]);
  return `${hanger()}${piece(L, d)}<path d="${d}" fill="${quilt}"/>${piece(L, 'M350 226Q400 262 450 226L462 236Q400 290 338 236Z', rib, false)}${piece(L, 'M270 566H530L526 606H274Z', rib, false)}${piece(L, 'M560 582L598 578L600 618L566 622Z', rib, false)}${piece(L, flip('M560 582L598 578L600 618L566 622Z'), rib, false)}${ln(L, 'M400 262V604', 5, 0.9, L.metal)}${piece(L, 'M394 270h12v26h-12z', L.metal, false)}`;
}

function cardigan(L: Look): string {
  const d = sym([...NECK, [530, 246], ...SLEEVE, [534, 500, 538, 680], [400, 684]]);
  const band = 'M380 226L404 420V682H420V420L440 224';
  const btns = [440, 510, 580, 650].map((y) => button(412, y, '#f3eee4', 8)).join('');
  return `${hanger()}${piece(L, d)}${inner(L, 'M362 226L400 420L438 226Q400 240 362 226Z', 0.5)}${ln(L, 'M362 226L400 420L438 226', 12, 0.9, light(L.base, 0.2))}${ln(L, 'M404 420V682', 14, 0.9, light(L.base, 0.2))}${ln(L, band, 2, 0.2)}${btns}${ln(L, 'M278 664H522M560 610L592 604M240 610L208 604', 8, 0.35, light(L.base, 0.3))}`;
}

// ---------------------------------------------------------------- shoes (side view, toe right)

function loafer(L: Look): string {
  const upper =
    'M-200 -10Q-210 -84 -188 -114L-150 -116Q-60 -110 20 -100Q120 -86 172 -52Q208 -30 206 -12L200 0H-200Z';
  return `${piece(L, 'M-206 0H206V-14H-206Z', dark(L.base, 0.55), false)}${piece(L, 'M-206 0H-140V-26H-206Z', dark(L.base, 0.6), false)}${piece(L, upper)}${shade('M-184 -112Q-90 -126 14 -100Q-90 -96 -184 -112Z', 0.55)}${piece(L, 'M2 -100Q50 -66 120 -74L140 -62Q60 -46 -14 -86Z', dark(L.base, 0.1))}${ln(L, 'M40 -80Q66 -72 96 -74', 5, 0.75, dark(L.base, 0.5))}${stitch('M22 -96Q120 -88 168 -50', light(L.base, 0.35), 2)}`;
}
function pump(L: Look): string {
  const upper =
    'M214 -4Q130 -34 40 -62Q-60 -92 -150 -150Q-176 -170 -192 -184Q-204 -160 -196 -132C-120 -128 -40 -10 40 -6Q120 2 214 -4Z';
  const heel = 'M-196 -132L-160 -128Q-170 -60 -166 0L-180 0Q-186 -70 -196 -132Z';
  return `${piece(L, heel, dark(L.base, 0.35), false)}${piece(L, upper)}${shade('M44 -60Q-60 -88 -188 -180Q-90 -104 44 -60Z', 0.5)}${ln(L, 'M-196 -130C-120 -126 -40 -8 40 -4Q120 4 214 -2', 4, 0.8, dark(L.base, 0.55))}`;
}
function heelSandal(L: Look): string {
  const sole =
    'M-200 -118L-150 -118C-80 -110 -20 -10 60 -4L208 -2L208 10L60 10C-20 6 -90 -96 -150 -104L-200 -104Z';
  const heel = 'M-200 -104L-150 -104L-158 10L-192 10Z';
  const straps = `${ln(L, 'M110 -6Q150 -74 196 -4', 14, 1, L.base)}${ln(L, 'M20 -20Q60 -96 104 -12', 12, 1, L.base)}${ln(L, 'M-196 -116L-192 -210', 12, 1, L.base)}`;
  return `${piece(L, heel, dark(L.base, 0.2), false)}${piece(L, sole, dark(L.base, 0.3), false)}${straps}<ellipse cx="-150" cy="-212" rx="58" ry="16" fill="none" stroke="${L.base}" stroke-width="11"/>${ln(L, 'M110 -6Q150 -74 196 -4M20 -20Q60 -96 104 -12', 2, 0.4)}<rect x="-112" y="-226" width="20" height="24" rx="3" fill="none" stroke="${METAL_WORDS.gold}" stroke-width="4"/>`;
}
function sneaker(L: Look): string {
  const upper =
    'M-198 -40Q-206 -110 -182 -132L-120 -142Q-60 -136 -20 -112L60 -84Q160 -74 198 -54Q216 -40 212 -34H-198Z';
  const sole = 'M-210 0H214Q224 -18 212 -36H-206Q-216 -18 -210 0Z';
  const laces = Array.from({ length: 4 }, (_, i) => {
    const x = -60 + i * 30;
    const y = -126 + i * 12;
    return `M${x} ${y}L${x + 28} ${y + 18}M${x} ${y + 18}L${x + 28} ${y}`;
  }).join('');
  return `${piece(L, upper)}${piece(L, sole, '#efe7d6', false)}${piece(L, 'M130 -36Q190 -40 212 -36Q210 -56 196 -58Q160 -66 130 -36Z', '#efe7d6', false)}${ln(L, 'M-206 -16H214', 3, 0.5, '#b9ad99')}${ln(L, laces, 4, 1, '#f6f1e7')}${piece(L, 'M-202 -70L-186 -74L-180 -40H-200Z', '#efe7d6', false)}`;
}
function slide(L: Look): string {
  const bed =
    'M-186 -20C-186 -42 -150 -44 -110 -41C-30 -37 40 -47 120 -47C170 -47 198 -32 198 -20C198 -6 170 6 120 6C40 6 -30 -2 -110 1C-150 3 -186 2 -186 -20Z';
  const band = 'M12 2C2 -60 30 -98 80 -100C130 -100 154 -60 148 4Q80 12 12 2Z';
  return `<g transform="translate(0 16)">${piece(L, bed, dark(L.base, 0.45), false)}</g>${piece(L, bed, light(L.base, 0.28), false)}${piece(L, band)}${stitch('M26 -2C18 -56 40 -86 80 -88C120 -88 138 -56 134 -2', light(L.base, 0.35), 2)}`;
}
function flat(L: Look): string {
  const upper =
    'M-196 -8Q-202 -56 -186 -70Q-100 -52 0 -46Q100 -46 162 -38Q204 -26 204 -10L198 0H-196Z';
  const beads = beadRow(
    Array.from({ length: 16 }, (_, i) => {
      const t = i / 15;
      return [-182 + t * 300, -68 + 22 * Math.sin(t * Math.PI * 0.9) + t * 10];
    }),
    BEADS,
    12,
  );
  return `${piece(L, 'M-200 0H204V-10H-200Z', dark(L.base, 0.5), false)}${piece(L, upper)}${shade('M-180 -68Q-60 -40 120 -46Q-40 -56 -180 -68Z', 0.5)}${beads}${piece(L, 'M118 -48Q128 -64 142 -52Q128 -40 118 -48Z', dark(L.base, 0.2))}`;
}
function boot(L: Look): string {
  const upper =
    'M-192 -262L-62 -262Q-56 -150 -14 -110Q110 -84 186 -52Q212 -36 208 -14L200 0H-200Q-212 -130 -192 -262Z';
  const gusset = 'M-150 -262L-142 -150Q-124 -128 -104 -150L-94 -262Z';
  const rib = tile(L.doc, 8, 8, '#3a3940', '<rect width="3" height="8" fill="#4c4b52"/>');
  return `${piece(L, upper)}${piece(L, gusset, rib, false)}${piece(L, 'M-204 0H-130V-26H-204Z', '#6b4a32', false)}${ln(L, 'M-204 -9H-130M-204 -18H-130', 1.5, 0.6, '#3b2a1f')}${piece(L, 'M-204 2H208V-8H-204Z', '#2a2220', false)}${piece(L, 'M-194 -262L-198 -300L-170 -300L-168 -262Z', dark(L.base, 0.1))}${stitch('M-12 -112Q100 -86 180 -52', '#555159', 2)}`;
}
function shoes(L: Look, draw: (L: Look) => string, s = 1): string {
  dim = 0.22;
  const back = draw(L);
  dim = 0;
  return `<g transform="translate(462 744) scale(${s * 1.2})">${back}</g><g transform="translate(364 800) scale(${s * 1.2})">${draw(L)}</g>`;
}

// ---------------------------------------------------------------- bags (front view on plinth)

function tote(L: Look): string {
  const handle = (dx: number) =>
    `<path d="M${310 + dx} 472Q${310 + dx} 292 ${400 + dx} 292Q${490 + dx} 292 ${490 + dx} 472" fill="none" stroke="${dark(L.base, 0.2)}" stroke-width="22"/>`;
  const body = 'M250 470H550L582 770Q582 784 568 784H232Q218 784 218 770Z';
  return `${handle(14)}${shade('M250 470Q400 488 550 470Q400 458 250 470Z', 0.6)}${piece(L, body)}${handle(-8)}${[302, 482].map((x) => dot(x, 488, 5, L.metal)).join('')}${stitch('M256 490H544', light(L.base, 0.3))}`;
}
function basket(L: Look): string {
  const liner = 'M262 486Q266 410 300 404H500Q534 410 538 486Z';
  const body = 'M242 480Q232 700 276 772Q400 800 524 772Q568 700 558 480Z';
  const handle = (dx: number) =>
    `<path d="M${312 + dx} 486Q${320 + dx} 300 ${400 + dx} 300Q${480 + dx} 300 ${488 + dx} 486" fill="none" stroke="${pick(LEATHERS, 0)}" stroke-width="16"/>`;
  return `${handle(10)}${piece(L, liner, '#ece3d1', false)}${ln(L, 'M300 420Q400 440 500 420', 3, 0.6, '#b9ad99')}${piece(L, body)}${piece(L, 'M240 474Q400 500 560 474L558 500Q400 526 242 500Z', dark(L.base, 0.12), false)}${handle(-8)}`;
}
function shopper(L: Look): string {
  const canvas = '#ddcfb2';
  const body = 'M262 430H538L556 782H244Z';
  const strap = `<path d="M302 434Q300 150 400 150Q500 150 498 434" fill="none" stroke="${dark(canvas, 0.12)}" stroke-width="16"/>`;
  return `${strap}${piece(L, body, canvas, false)}${piece(L, 'M284 470H516L528 752H272Z')}${stitch('M266 446H534', dark(canvas, 0.3))}${dot(400, 448, 7, L.metal)}`;
}
function topHandle(L: Look): string {
  const body =
    'M262 510Q264 496 280 496H520Q536 496 538 510L566 772Q566 786 552 786H248Q234 786 234 772Z';
  const flap = 'M262 498H538L546 620Q400 650 254 620Z';
  const handle = `<path d="M330 500Q326 368 400 368Q474 368 470 500" fill="none" stroke="${dark(L.base, 0.15)}" stroke-width="18"/>`;
  return `${handle}${piece(L, body)}${piece(L, flap)}${piece(L, 'M384 620h32v30h-32z', metalGrad(L.doc, L.metal), false)}${dot(400, 635, 6, dark(L.metal, 0.3))}${[330, 470].map((x) => piece(L, `M${x - 10} 484h20v24h-20z`, metalGrad(L.doc, L.metal), false)).join('')}`;
}
function saddle(L: Look): string {
  const body = 'M244 520H556Q568 700 476 774H324Q232 700 244 520Z';
  const flap = 'M250 520H550Q556 664 400 710Q244 664 250 520Z';
  const strap = `<path d="M256 528Q250 140 400 140Q550 140 544 528" fill="none" stroke="${dark(L.base, 0.15)}" stroke-width="12"/>`;
  const pebble = tile(
    L.doc,
    14,
    14,
    '',
    '<circle cx="4" cy="4" r="2" fill="#000" fill-opacity=".12"/><circle cx="11" cy="10" r="2" fill="#fff" fill-opacity=".08"/>',
  );
  const m = metalGrad(L.doc, L.metal);
  return `${strap}${piece(L, body)}<path d="${body}" fill="${pebble}"/>${piece(L, flap)}${stitch('M266 532H534Q536 650 400 692Q264 650 266 532', light(L.base, 0.3))}${piece(L, 'M388 640h24v60h-24z', dark(L.base, 0.1))}<rect x="380" y="646" width="40" height="24" rx="4" fill="none" stroke="${m}" stroke-width="5"/>${[254, 546].map((x) => `<circle cx="${x}" cy="526" r="12" fill="none" stroke="${m}" stroke-width="5"/>`).join('')}`;
}
function clutch(L: Look): string {
  const body =
    'M214 566Q214 552 228 552H572Q586 552 586 566V762Q586 776 572 776H228Q214 776 214 762Z';
  const flap = 'M216 556H584L408 690Q400 696 392 690Z';
  const trim = pick(LEATHERS, 1);
  return `${piece(L, body)}${piece(L, flap)}<path d="M216 556H584L408 690Q400 696 392 690Z" fill="none" stroke="${trim}" stroke-width="9"/>${dot(400, 680, 8, L.metal)}`;
}
function pouch(L: Look): string {
  const body =
    'M296 600Q296 580 316 580H484Q504 580 504 600L512 762Q512 778 496 778H304Q288 778 288 762Z';
  return `<path d="M484 596Q590 520 560 440Q530 400 500 450Q480 500 470 590" fill="none" stroke="${dark(L.base, 0.3)}" stroke-width="9"/>${piece(L, body)}${piece(L, 'M294 580H506V606H294Z', '#3a3238', false)}${ln(L, 'M300 593H500', 4, 0.9, '#b7a98f')}${piece(L, 'M472 590h14v40h-14z', metalGrad(L.doc, METAL_WORDS.gold ?? '#c99d45'), false)}`;
}

// ---------------------------------------------------------------- jewellery

function stand(L: Look): string {
  const m = metalGrad(L.doc, '#b9a27a');
  return `<rect x="394" y="300" width="12" height="470" fill="${m}"/><rect x="236" y="292" width="328" height="12" rx="6" fill="${m}"/><ellipse cx="400" cy="770" rx="60" ry="12" fill="${m}"/>`;
}
function dropEarrings(L: Look): string {
  const m = metalGrad(L.doc, L.metal, true);
  const one = (x: number) =>
    `<path d="M${x} 300Q${x + 22} 300 ${x + 18} 330Q${x + 12} 350 ${x} 356" fill="none" stroke="${L.metal}" stroke-width="3"/>${dot(x, 410, 50, m, ` stroke="${dark(L.metal, 0.4)}" stroke-width="2"`)}${dot(x, 410, 34, 'none', ` stroke="${dark(L.metal, 0.35)}" stroke-width="2" stroke-dasharray="3 5"`)}<ellipse cx="${x}" cy="504" rx="26" ry="38" fill="#efe6d6" stroke="#b5a88f" stroke-width="2"/><path d="M${x} 474V534" stroke="#8a7c66" stroke-width="4"/>${ln(L, `M${x - 6} 482h-6M${x - 6} 498h-6M${x - 6} 514h-6M${x + 6} 490h6M${x + 6} 506h6M${x + 6} 522h6`, 2, 0.8, '#8a7c66')}${dot(x, 462, 5, L.metal)}`;
  return `${stand(L)}${one(318)}${one(482)}`;
}
function hoops(L: Look): string {
  const m = metalGrad(L.doc, L.metal);
  const one = (x: number) =>
    `<circle cx="${x}" cy="420" r="84" fill="none" stroke="${dark(L.metal, 0.45)}" stroke-width="18"/><circle cx="${x}" cy="420" r="84" fill="none" stroke="${m}" stroke-width="13"/><path d="M${x - 40} 352A84 84 0 0 1 ${x + 30} 342" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="4"/>${ln(L, `M${x} 298V336`, 3, 1, L.metal)}`;
  return `${stand(L)}${one(314)}${one(486)}`;
}
function cuff(L: Look): string {
  const m = metalGrad(L.doc, L.metal);
  const bone = L.base === L.metal ? '#e8dfcb' : L.base;
  const h = 120;
  // an open cuff standing on its edge, the opening turned to face us
  const back = `M226 560A174 64 0 0 1 574 560V${560 + h}A174 64 0 0 0 226 ${560 + h}Z`;
  const left = `M226 560A174 64 0 0 0 360 622V${622 + h}A174 64 0 0 1 226 ${560 + h}Z`;
  const bands = (dy: number) =>
    `<path d="M226 ${560 + dy}A174 64 0 0 0 360 ${622 + dy}" fill="none" stroke="${m}" stroke-width="11"/>`;
  const half = `${piece(L, left, bone, true)}${bands(30)}${bands(60)}${bands(90)}${ln(L, `M360 622V${622 + h}`, 6, 0.5, light(bone, 0.4))}`;
  return `${piece(L, back, dark(bone, 0.28), false)}<ellipse cx="400" cy="${560 + h}" rx="150" ry="46" fill="#1d1a1c" fill-opacity=".15"/>${half}<g transform="matrix(-1 0 0 1 800 0)">${half}</g>`;
}
function bust(): string {
  return '<path d="M344 270Q344 240 372 236H428Q456 240 456 270V380Q470 430 560 462Q646 494 652 566L660 772H140L148 566Q154 494 240 462Q330 430 344 380Z" fill="#cdbb99" stroke="#8f7e60" stroke-width="2"/><path d="M344 270Q344 240 372 236H428Q456 240 456 270V380Q470 430 560 462Q646 494 652 566L660 772H140L148 566Q154 494 240 462Q330 430 344 380Z" fill="url(#sh)"/><ellipse cx="400" cy="242" rx="56" ry="12" fill="#b8a583"/>';
}
function collarNecklace(L: Look): string {
  const cols = L.colours.length >= 2 ? L.colours : BEADS;
  const pal = [L.metal, ...cols];
  const pts: number[][] = [];
  const colour: string[] = [];
  for (let row = 0; row < 6; row++) {
    const rx = 72 + row * 21;
    const ry = 46 + row * 17;
    const n = 16 + row * 3;
    for (let i = 0; i <= n; i++) {
      const a = Math.PI * (0.02 + (0.96 * i) / n);
      pts.push([400 + rx * Math.cos(a), 372 + ry * Math.sin(a)]);
      colour.push(pick(pal, row % 2 ? row + i : row));
    }
  }
  return `${bust()}${beadRow(pts, colour, 16)}`;
}
function chainNecklace(L: Look): string {
  const m = metalGrad(L.doc, L.metal, true);
  const chain = 'M336 392Q356 530 400 560Q444 530 464 392';
  return `${bust()}<path d="${chain}" fill="none" stroke="${dark(L.metal, 0.45)}" stroke-width="9" stroke-dasharray="6 7"/><path d="${chain}" fill="none" stroke="${L.metal}" stroke-width="5" stroke-dasharray="6 7"/><path d="${chain}" fill="none" stroke="${light(L.metal, 0.3)}" stroke-width="2"/><ellipse cx="400" cy="594" rx="24" ry="33" fill="${m}" stroke="${dark(L.metal, 0.45)}" stroke-width="3"/><path d="M392 576Q396 568 404 568" stroke="#fff" stroke-width="3" fill="none"/>`;
}
function bracelets(): string {
  const schemes = [
    ['#b15b3c', '#ecdfc5', '#c99d45'],
    ['#2f6466', '#c99d45', '#ecdfc5'],
    ['#2e3b63', '#c38d3a', '#6b2233'],
  ];
  const ring = (k: number, front: boolean) => {
    const y = 500 + k * 84;
    const pts: number[][] = [];
    const cols: string[] = [];
    const ang: number[] = [];
    for (let i = 0; i < 24; i++) {
      const a = (2 * Math.PI * (i + 0.5)) / 24;
      if (Math.sin(a) > 0 !== front) continue;
      pts.push([400 + 128 * Math.cos(a), y + 34 * Math.sin(a)]);
      ang.push(Math.atan2(34 * Math.cos(a), -128 * Math.sin(a)));
      cols.push(pick(pick(schemes, k), i));
    }
    return beadRow(pts, cols, 22, 14, ang);
  };
  const rings = [0, 1, 2];
  const post = `<path d="M334 420H466L470 780H330Z" fill="#6d6258"/><path d="M334 420H466L470 780H330Z" fill="url(#sh)"/><ellipse cx="400" cy="420" rx="66" ry="16" fill="#857869"/>`;
  return `${rings.map((k) => ring(k, false)).join('')}${post}${rings.map((k) => ring(k, true)).join('')}`;
}
function ring(L: Look): string {
  const horn = L.base;
  const id = uid(L.doc, 'g');
  L.doc.defs.push(
    `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2=".4"><stop offset="0" stop-color="${light(horn, 0.35)}"/><stop offset=".35" stop-color="${horn}"/><stop offset=".55" stop-color="#b8956a"/><stop offset=".7" stop-color="${horn}"/><stop offset="1" stop-color="${dark(horn, 0.4)}"/></linearGradient>`,
  );
  return `<path d="M400 760Q470 760 470 700V690Q470 630 400 630Q330 630 330 690V700Q330 760 400 760Z" fill="#4a4f5c"/><ellipse cx="400" cy="620" rx="112" ry="124" fill="none" stroke="${dark(horn, 0.3)}" stroke-width="34"/><ellipse cx="400" cy="620" rx="112" ry="124" fill="none" stroke="url(#${id})" stroke-width="26"/><ellipse cx="400" cy="486" rx="98" ry="60" fill="url(#${id})" stroke="${dark(horn, 0.4)}" stroke-width="2"/><path d="M330 470Q380 440 440 452" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="6"/>`;
}

// ---------------------------------------------------------------- accessories

function headwrap(L: Look): string {
  const form = '#cdbb99';
  const headD =
    'M318 600Q300 540 304 460Q310 320 400 316Q490 320 496 460Q500 540 482 600Q460 648 420 656L424 700Q520 720 610 736Q664 750 668 772H132Q136 750 190 736Q280 720 376 700L380 656Q340 648 318 600Z';
  const head = `<path d="${headD}" fill="${form}" stroke="#8f7e60" stroke-width="2"/><path d="${headD}" fill="url(#sh)"/>${shade('M300 470Q400 440 500 470L498 496Q400 466 302 496Z', 0.14)}`;
  const wrap =
    'M276 482Q226 340 294 236Q356 156 440 164Q550 180 550 296Q552 400 524 482Q470 440 400 452Q330 440 276 482Z';
  const bandA = 'M270 456Q300 330 470 190L530 236Q380 330 336 470Z';
  const bandB = 'M530 456Q500 330 330 190L270 236Q420 330 464 470Z';
  const knot = 'M356 330Q350 280 400 270Q452 276 444 330Q436 370 400 372Q364 370 356 330Z';
  const edge = (d: string) => ln(L, d, 5, 0.55);
  return `${head}${piece(L, wrap)}${shade('M276 482Q226 340 294 236Q356 156 440 164Q330 240 330 470Z', 0.1)}${piece(L, bandB)}${shade(bandB, 0.28)}${edge(bandB)}${piece(L, bandA)}${edge(bandA)}${piece(L, knot)}${edge(knot)}${ln(L, 'M378 300Q400 330 424 300', 3, 0.5)}`;
}
function belt(L: Look): string {
  const m = metalGrad(L.doc, L.metal);
  const front = 'M170 600A230 86 0 0 0 630 600V650A230 86 0 0 1 170 650Z';
  const back = 'M170 600A230 86 0 0 1 630 600V650A230 86 0 0 0 170 650Z';
  return `${piece(L, back)}${shade(back, 0.35)}${piece(L, front)}<rect x="368" y="664" width="64" height="72" rx="10" fill="none" stroke="${dark(L.metal, 0.45)}" stroke-width="16"/><rect x="368" y="664" width="64" height="72" rx="10" fill="none" stroke="${m}" stroke-width="11"/>${ln(L, 'M400 664V736', 6, 1, dark(L.metal, 0.2))}`;
}
function sunglasses(L: Look): string {
  const tort = tile(
    L.doc,
    60,
    60,
    '#8a4b1e',
    '<ellipse cx="14" cy="16" rx="11" ry="7" fill="#3b1d0e"/><ellipse cx="44" cy="38" rx="9" ry="12" fill="#4a2412"/><ellipse cx="38" cy="10" rx="6" ry="4" fill="#c27a34"/><ellipse cx="16" cy="46" rx="8" ry="5" fill="#c27a34"/><circle cx="52" cy="8" r="4" fill="#3b1d0e"/>',
    'rotate(20)',
  );
  const frame =
    'M412 586Q414 530 476 520Q560 512 640 470Q664 500 652 556Q636 640 540 650Q424 656 412 586Z';
  const lens =
    'M430 590Q432 552 482 546Q560 540 628 506Q638 530 628 566Q612 630 540 634Q440 638 430 590Z';
  const id = uid(L.doc, 'l');
  L.doc.defs.push(
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2a1a12" stop-opacity=".92"/><stop offset="1" stop-color="#9a6a46" stop-opacity=".5"/></linearGradient>`,
  );
  const temples = ln(L, 'M650 520L446 560M150 520L354 560', 10, 1, '#5a2f16');
  const body = `${temples}${piece(L, frame, tort, true)}${piece(L, flip(frame), tort, true)}<path d="${lens}" fill="url(#${id})"/><path d="${flip(lens)}" fill="url(#${id})"/>${piece(L, 'M384 560Q400 544 416 560V578Q400 566 384 578Z', tort, false)}<path d="M462 566Q488 556 512 556" stroke="#fff" stroke-opacity=".45" stroke-width="6"/>`;
  return `<g transform="matrix(1.1 0 0 1.1 -40 60)">${body}</g>`;
}
function scarf(L: Look): string {
  const border = waxPattern(
    L.doc,
    [pick(L.wax, 1), pick(L.wax, 0), pick(L.wax, 3), pick(L.wax, 2)],
    (L.h >> 4) % 6,
    40,
    0,
  );
  const sq = 'M190 300H610V720H190Z';
  const field = 'M236 346H564V674H236Z';
  const fold = 'M610 600V720H490Z';
  return `<g transform="rotate(-7 400 510)">${piece(L, sq, border)}${piece(L, field)}<path d="${fold}" fill="${light(pick(L.wax, 1), 0.2)}"/>${ln(L, 'M490 720L610 600', 3, 0.4)}</g>`;
}
function hat(L: Look): string {
  const brim = 'M96 640A304 96 0 1 0 704 640A304 96 0 1 0 96 640Z';
  const crown = 'M268 620Q262 430 400 418Q538 430 532 620Q400 660 268 620Z';
  return `${piece(L, brim)}${shade('M150 620A250 70 0 0 1 650 620Q400 560 150 620Z', 0.12)}${piece(L, crown)}${piece(L, 'M268 578Q400 614 532 578L532 620Q400 660 268 620Z', '#2a2e3d', false)}${ln(L, 'M300 470Q400 440 500 470', 3, 0.3)}`;
}
function scrunchies(L: Look): string {
  const ruffle = (cx: number, cy: number, rx: number, ry: number, fill: string) => {
    let d = '';
    const n = 18;
    for (let i = 0; i <= n; i++) {
      const a = (2 * Math.PI * i) / n;
      const x = Math.round(cx + rx * Math.cos(a));
      const y = Math.round(cy + ry * Math.sin(a));
      if (i === 0) d += `M${x} ${y}`;
      else {
        const am = (2 * Math.PI * (i - 0.5)) / n;
        d += `Q${Math.round(cx + (rx + 22) * Math.cos(am))} ${Math.round(cy + (ry + 18) * Math.sin(am))} ${x} ${y}`;
      }
    }
    const hole = `M${cx - rx * 0.42} ${cy}a${rx * 0.42} ${ry * 0.4} 0 1 0 ${rx * 0.84} 0a${rx * 0.42} ${ry * 0.4} 0 1 0 ${-rx * 0.84} 0Z`;
    return `<path d="${d}Z${hole}" fill="${fill}" fill-rule="evenodd" stroke="${dark(L.base, 0.3)}" stroke-opacity=".5" stroke-width="2"/><path d="${d}Z${hole}" fill="url(#sh)" fill-rule="evenodd"/>${ln(L, `M${cx - rx * 0.7} ${cy - ry * 0.5}Q${cx} ${cy - ry * 0.9} ${cx + rx * 0.7} ${cy - ry * 0.5}`, 3, 0.25)}`;
  };
  const kit = waxPattern(L.doc, pick(WAX, L.h), 0, 50, 0);
  return `${ruffle(400, 560, 120, 90, '#9a5833')}${ruffle(270, 700, 120, 72, kit)}${ruffle(540, 708, 120, 72, '#efe7d5')}`;
}
function wallet(L: Look): string {
  const body =
    'M236 500Q236 486 250 486H550Q564 486 564 500V730Q564 744 550 744H250Q236 744 236 730Z';
  const cards = ['#2f6466', '#c99d45', '#efe7d5']
    .map(
      (c, i) =>
        `<rect x="${280 + i * 24}" y="${462 + i * 12}" width="190" height="100" rx="8" fill="${c}"/>`,
    )
    .join('');
  const slots = [540, 580, 620]
    .map((y) => ln(L, `M236 ${y}Q400 ${y + 20} 564 ${y}`, 3, 0.55))
    .join('');
  return `<g transform="rotate(-4 400 620)">${cards}${piece(L, body)}${slots}${stitch('M250 500H550V730H250Z', light(L.base, 0.35), 2)}</g>`;
}

// ---------------------------------------------------------------- choosing the art

type Draw = (L: Look) => string;
/** The garment from behind: which of its drawn pieces stay (in order), and what the back adds. */
type Back = {
  keep?: number[];
  /** Pieces drawn see-through (sheer sleeves). */
  sheer?: number[];
  add?: (L: Look, box: Box, pieces: Caught[]) => string;
};
type Kind = {
  re: RegExp;
  draw: Draw;
  stage: 'hang' | 'plinth';
  scale?: number;
  /** The close detail: the point to zoom on (drawing coordinates) and how far. */
  focus: [number, number, number];
  back?: Back;
};

type Box = { x0: number; y0: number; x1: number; y1: number };
/** The bounds of a path's points (control points included: near enough to place details). */
function box(d: string): Box {
  const b = { x0: 1e9, y0: 1e9, x1: -1e9, y1: -1e9 };
  for (const m of d.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)) {
    const x = Number(m[1]);
    const y = Number(m[2]);
    b.x0 = Math.min(b.x0, x);
    b.x1 = Math.max(b.x1, x);
    b.y0 = Math.min(b.y0, y);
    b.y1 = Math.max(b.y1, y);
  }
  return b;
}
const fillOf = (L: Look, pieces: Caught[], i: number) => pieces[i]?.fill ?? L.fill;
/** A concealed centre-back zip: the seam, its tape and a small pull. */
const zip = (L: Look, top: number, len: number, tail = 240) =>
  `${ln(L, `M400 ${top}V${top + len}`, 3, 0.55)}${tail ? ln(L, `M400 ${top + len}V${top + len + tail}`, 2, 0.3) : ''}<path d="M396 ${top + 4}h8v20h-8z" fill="${metalGrad(L.doc, L.metal)}"/>`;
const darts = (L: Look, y: number) =>
  ln(L, `M344 ${y - 70}L352 ${y + 30}M456 ${y - 70}L448 ${y + 30}`, 2.5, 0.3);
const seam = (L: Look, top: number, bottom: number) => ln(L, `M400 ${top}V${bottom}`, 2.5, 0.4);
/** A back neckline sitting higher than the front's, with its facing. */
const backNeck = (L: Look) => ln(L, 'M356 228Q400 250 444 228', 3, 0.45);
const collarBand = (L: Look, fill: string) =>
  piece(L, 'M350 224Q400 244 450 224L456 246Q400 270 344 246Z', fill, false);
const vent = (L: Look, bottom: number, len: number) =>
  `${shade(`M400 ${bottom - len}L412 ${bottom - len + 14}V${bottom}H400Z`, 0.18)}${ln(L, `M400 ${bottom - len}V${bottom}M400 ${bottom - len}L412 ${bottom - len + 14}V${bottom}`, 2.5, 0.5)}`;
const welts = (L: Look, y: number) =>
  `${ln(L, `M318 ${y}H378M422 ${y}H482`, 6, 0.55)}${button(348, y + 16, dark(L.base, 0.3), 5)}${button(452, y + 16, dark(L.base, 0.3), 5)}`;
const waistband = (L: Look) => ln(L, 'M270 296Q400 300 530 296', 3, 0.5);
const loops = (L: Look) =>
  [300, 360, 440, 500].map((x) => piece(L, `M${x - 6} 252h12v50h-12z`, undefined, false)).join('');

const KINDS: Kind[] = [
  { re: /wrap dress/, draw: wrapDress, stage: 'hang', focus: [372, 430, 2.5] },
  { re: /shirt dress/, draw: shirtDress, stage: 'hang', focus: [404, 360, 2.5] },
  {
    re: /gown/,
    draw: gown,
    stage: 'hang',
    focus: [330, 470, 2.4],
    back: { keep: [0, 1], add: (L) => `${backNeck(L)}${zip(L, 236, 214)}${darts(L, 430)}` },
  },
  {
    re: /maxi/,
    draw: maxiDress,
    stage: 'hang',
    focus: [400, 420, 2.5],
    back: { keep: [0, 1], add: (L) => `${backNeck(L)}${zip(L, 240, 212)}${darts(L, 420)}` },
  },
  { re: /slip dress/, draw: slipDress, stage: 'hang', focus: [440, 340, 2.6] },
  { re: /tiered|sundress/, draw: tieredDress, stage: 'hang', focus: [430, 430, 2.4] },
  {
    re: /dress/,
    draw: shiftDress,
    stage: 'hang',
    focus: [430, 330, 3],
    back: { add: (L) => `${backNeck(L)}${zip(L, 240, 260)}${darts(L, 470)}` },
  },
  {
    re: /blazer/,
    draw: blazer,
    stage: 'hang',
    scale: 1.08,
    focus: [420, 500, 2.4],
    back: {
      add: (L, b) =>
        `${seam(L, 244, b.y1)}${ln(L, 'M336 330Q318 520 330 730M464 330Q482 520 470 730', 2.5, 0.3)}${vent(L, b.y1, 130)}${collarBand(L, /barkcloth/.test(L.name) ? barkTex(L.doc, '#9a5833') : L.fill)}`,
    },
  },
  {
    re: /trench|coat/,
    draw: trench,
    stage: 'hang',
    focus: [400, 470, 2.4],
    back: {
      keep: [0, 3],
      add: (L, b) =>
        `${piece(L, 'M266 250Q400 268 534 250L540 372Q400 392 260 372Z')}${collarBand(L, L.fill)}${vent(L, b.y1, 230)}${seam(L, 392, 464)}${seam(L, 506, b.y1 - 230)}`,
    },
  },
  {
    re: /kimono/,
    draw: kimono,
    stage: 'hang',
    scale: 1.04,
    focus: [380, 300, 2.4],
    back: {
      add: (L, b) =>
        `${collarBand(L, pick(L.wax, 0))}${seam(L, 250, b.y1)}${ln(L, 'M530 440L540 244M270 440L260 244', 2.5, 0.4)}`,
    },
  },
  {
    re: /bomber/,
    draw: bomber,
    stage: 'hang',
    scale: 1.24,
    focus: [420, 300, 2.5],
    back: {
      keep: [0, 2, 3, 4],
      add: (L, _b, p) => {
        const quilt = tile(
          L.doc,
          56,
          56,
          '',
          '<path d="M0 0L56 56M56 0L0 56" stroke="#1d1a1c" stroke-opacity=".35" stroke-width="2.5" stroke-dasharray="6 4"/>',
        );
        return `<path d="${p[0]?.d}" fill="${quilt}"/>${piece(L, 'M342 228Q400 256 458 228L464 250Q400 282 336 250Z', fillOf(L, p, 1), false)}`;
      },
    },
  },
  {
    re: /cardigan/,
    draw: cardigan,
    stage: 'hang',
    scale: 1.1,
    focus: [412, 500, 2.6],
    back: {
      add: (L) =>
        `${ln(L, 'M358 230Q400 250 442 230', 12, 0.9, light(L.base, 0.2))}${ln(L, 'M278 664H522M560 610L592 604M240 610L208 604', 8, 0.35, light(L.base, 0.3))}`,
    },
  },
  { re: /jacket/, draw: denimJacket, stage: 'hang', scale: 1.24, focus: [450, 380, 2.5] },
  {
    re: /shirt/,
    draw: shirt,
    stage: 'hang',
    scale: 1.18,
    focus: [372, 330, 2.4],
    back: {
      keep: [0, 3, 4],
      add: (L, b, p) =>
        `${collarBand(L, fillOf(L, p, 1))}${ln(L, 'M272 312Q400 330 528 312', 3, 0.45)}${ln(L, `M386 322V${b.y1 - 30}M414 322V${b.y1 - 30}`, 2, 0.25)}${shade('M386 322L400 330L414 322V380L400 386L386 380Z', 0.1)}`,
    },
  },
  {
    re: /peplum/,
    draw: peplum,
    stage: 'hang',
    scale: 1.3,
    focus: [430, 480, 2.4],
    back: {
      add: (L) =>
        `${backNeck(L)}${zip(L, 240, 200, 0)}${ln(L, 'M312 470Q400 480 488 470', 3.5, 0.55)}${ln(L, 'M510 490Q520 540 530 586M290 490Q280 540 270 586', 2.5, 0.3)}`,
    },
  },
  {
    re: /camisole|cami\b/,
    draw: cami,
    stage: 'hang',
    scale: 1.26,
    focus: [446, 320, 2.6],
    back: {
      add: (L) =>
        `${ln(L, 'M448 222L330 318M352 222L470 318', 5, 1, dark(L.base, 0.15))}${ln(L, 'M316 330Q400 344 484 330', 3, 0.35)}`,
    },
  },
  {
    re: /off-shoulder|bardot/,
    draw: offShoulder,
    stage: 'hang',
    scale: 1.3,
    focus: [440, 320, 2.6],
    back: {
      keep: [0, 1],
      add: (L) =>
        `${ln(L, 'M300 300L312 266M500 300L488 266', 4, 0.8, '#e9dfcc')}${ln(L, 'M272 304H528M272 312H528', 1.5, 0.3)}`,
    },
  },
  {
    re: /blouse/,
    draw: blouse,
    stage: 'hang',
    scale: 1.2,
    focus: [420, 330, 2.6],
    back: {
      keep: [0, 1, 2, 3],
      sheer: [0, 1],
      add: (L, _b, p) => {
        const pleats = tile(
          L.doc,
          14,
          14,
          '',
          '<rect width="5" height="14" fill="#1d1a1c" fill-opacity=".18"/><rect x="6" width="2" height="14" fill="#fff" fill-opacity=".14"/>',
        );
        return `<path d="${p[2]?.d}" fill="${pleats}"/>${piece(L, 'M372 200H428V240Q400 248 372 240Z')}${ln(L, 'M400 240V300', 3, 0.6)}${button(400, 224, '#efe6d4', 5)}`;
      },
    },
  },
  { re: /\btee\b|t-shirt/, draw: tee, stage: 'hang', scale: 1.3, focus: [420, 350, 2.6] },
  {
    re: /palazzo/,
    draw: palazzo,
    stage: 'hang',
    focus: [440, 300, 2.4],
    back: {
      add: (L) =>
        `${ln(L, 'M270 292Q400 296 530 292', 4, 0.6)}${ln(L, Array.from({ length: 14 }, (_, i) => `M${282 + i * 18} 256v32`).join(''), 2, 0.3)}${ln(L, 'M400 296Q404 400 400 494', 2.5, 0.4)}`,
    },
  },
  { re: /wide-leg/, draw: wideLeg, stage: 'hang', focus: [420, 290, 2.6] },
  { re: /drawstring/, draw: drawstring, stage: 'hang', focus: [400, 310, 2.7] },
  {
    re: /mini/,
    draw: miniSkirt,
    stage: 'hang',
    scale: 1.3,
    focus: [440, 340, 2.4],
    back: {
      add: (L) => {
        const top = '#d49a52';
        const pocket = 'M428 370H500L496 450L464 462L432 450Z';
        return `${waistband(L)}${loops(L)}${stitch('M280 284Q400 288 520 284M276 340Q400 360 524 340M226 556Q400 590 574 556M400 352V572', top)}${piece(L, pocket)}${piece(L, flip(pocket))}${stitch('M436 378H492L488 444L464 452L440 444Z', top)}${stitch(flip('M436 378H492L488 444L464 452L440 444Z'), top)}${ln(L, 'M400 352V574', 3, 0.5)}`;
      },
    },
  },
  {
    re: /slip skirt|bias/,
    draw: slipSkirt,
    stage: 'hang',
    focus: [430, 320, 2.4],
    back: { add: (L) => `${ln(L, 'M284 282Q400 288 516 282', 3, 0.5)}${zip(L, 286, 140)}` },
  },
  {
    re: /skirt/,
    draw: pleatSkirt,
    stage: 'hang',
    focus: [450, 420, 2.3],
    back: {
      add: (L, _b, p) => {
        const folds = Array.from({ length: 12 }, (_, i) => {
          const t = i / 11;
          const x0 = 280 + t * 240;
          const x1 = 180 + t * 440;
          return `M${x0} 292L${x0 + 10} 292L${x1 + 18} 820L${x1} 820Z`;
        }).join('');
        return `${clip(L.doc, p[0]?.d ?? '', shade(folds, 0.2))}${ln(L, 'M276 292Q400 296 524 292', 3.5, 0.55)}${zip(L, 296, 130)}`;
      },
    },
  },
  {
    re: /trousers|pants/,
    draw: cigarette,
    stage: 'hang',
    focus: [440, 300, 2.5],
    back: {
      add: (L) =>
        `${ln(L, 'M280 292Q400 296 520 292', 3, 0.5)}${loops(L)}${welts(L, 340)}${ln(L, 'M400 296Q404 400 404 470', 2.5, 0.45)}${ln(L, 'M472 420L470 846M328 420L330 846', 2.5, 0.4, light(L.base, 0.4))}${darts(L, 330)}`,
    },
  },
  { re: /loafer/, draw: (L) => shoes(L, loafer), stage: 'plinth', focus: [440, 700, 2.5] },
  { re: /sneaker/, draw: (L) => shoes(L, sneaker), stage: 'plinth', focus: [350, 680, 2.4] },
  { re: /slide/, draw: (L) => shoes(L, slide), stage: 'plinth', focus: [460, 740, 2.4] },
  { re: /sandal/, draw: (L) => shoes(L, heelSandal), stage: 'plinth', focus: [260, 560, 2.4] },
  { re: /pump|heel/, draw: (L) => shoes(L, pump), stage: 'plinth', focus: [380, 720, 2.4] },
  { re: /flat/, draw: (L) => shoes(L, flat), stage: 'plinth', focus: [320, 730, 2.6] },
  { re: /boot/, draw: (L) => shoes(L, boot, 0.95), stage: 'plinth', focus: [250, 560, 2.4] },
  { re: /tote/, draw: tote, stage: 'plinth', focus: [320, 500, 3.2] },
  { re: /basket|raffia/, draw: basket, stage: 'plinth', focus: [330, 500, 3] },
  { re: /shopper/, draw: shopper, stage: 'plinth', focus: [400, 470, 3] },
  { re: /top-handle/, draw: topHandle, stage: 'plinth', focus: [400, 600, 3.4] },
  { re: /saddle|crossbody/, draw: saddle, stage: 'plinth', focus: [400, 650, 3.2] },
  { re: /clutch/, draw: clutch, stage: 'plinth', focus: [400, 650, 3.2] },
  {
    re: /pouch|wristlet/,
    draw: pouch,
    stage: 'plinth',
    scale: 1.35,
    focus: [450, 640, 2.4],
  },
  { re: /hoop/, draw: hoops, stage: 'plinth', focus: [314, 400, 2.2] },
  { re: /earring/, draw: dropEarrings, stage: 'plinth', focus: [318, 430, 2.6] },
  { re: /cuff/, draw: cuff, stage: 'plinth', focus: [300, 640, 2.4] },
  { re: /collar|bead.*necklace/, draw: collarNecklace, stage: 'plinth', focus: [400, 450, 2.4] },
  { re: /necklace|chain/, draw: chainNecklace, stage: 'plinth', focus: [400, 560, 2.8] },
  { re: /bracelet/, draw: bracelets, stage: 'plinth', focus: [400, 620, 2.2] },
  { re: /ring\b/, draw: ring, stage: 'plinth', focus: [400, 540, 2.2] },
  { re: /headwrap|turban/, draw: headwrap, stage: 'plinth', focus: [400, 300, 2.4] },
  { re: /belt/, draw: belt, stage: 'plinth', focus: [400, 700, 3.2] },
  { re: /sunglasses/, draw: sunglasses, stage: 'plinth', focus: [440, 690, 2.4] },
  { re: /scarf/, draw: scarf, stage: 'hang', focus: [300, 420, 2.2] },
  { re: /hat\b/, draw: hat, stage: 'plinth', focus: [400, 600, 2.4] },
  { re: /scrunchie/, draw: scrunchies, stage: 'plinth', focus: [300, 660, 2.2] },
  { re: /wallet/, draw: wallet, stage: 'plinth', scale: 1.1, focus: [300, 520, 3] },
];

// ---------------------------------------------------------------- documents

function sharedDefs(tone: string, floor: number, plinthTone = tone): string {
  return [
    `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light(tone, 0.16)}"/><stop offset="${floor}" stop-color="${tone}"/><stop offset="${floor}" stop-color="${dark(tone, 0.07)}"/><stop offset="1" stop-color="${dark(tone, 0.13)}"/></linearGradient>`,
    '<linearGradient id="sh" x1="0" x2="1"><stop offset="0" stop-color="#fff" stop-opacity=".16"/><stop offset=".45" stop-color="#fff" stop-opacity="0"/><stop offset=".7" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".2"/></linearGradient>',
    '<linearGradient id="sn" x1="0" y1="0" x2="1" y2="1"><stop offset=".3" stop-color="#fff" stop-opacity="0"/><stop offset=".42" stop-color="#fff" stop-opacity=".3"/><stop offset=".54" stop-color="#fff" stop-opacity="0"/><stop offset=".8" stop-color="#000" stop-opacity=".1"/></linearGradient>',
    `<radialGradient id="fs"><stop offset="0" stop-color="#1d1a1c" stop-opacity=".28"/><stop offset="1" stop-color="#1d1a1c" stop-opacity="0"/></radialGradient>`,
    `<linearGradient id="pl" x1="0" x2="1"><stop offset="0" stop-color="${light(plinthTone, 0.3)}"/><stop offset=".6" stop-color="${light(plinthTone, 0.12)}"/><stop offset="1" stop-color="${dark(plinthTone, 0.08)}"/></linearGradient>`,
  ].join('');
}

function plinth(cx: number, top: number, rx: number, height: number, tone: string): string {
  const ry = Math.round(rx / 7);
  return `<ellipse cx="${cx}" cy="${top + height + ry * 0.6}" rx="${rx * 1.18}" ry="${ry * 1.2}" fill="url(#fs)"/><path d="M${cx - rx} ${top}V${top + height}A${rx} ${ry} 0 0 0 ${cx + rx} ${top + height}V${top}Z" fill="url(#pl)"/><ellipse cx="${cx}" cy="${top}" rx="${rx}" ry="${ry}" fill="${light(tone, 0.34)}"/>`;
}

function svg(w: number, h: number, title: string, defs: string[], body: string): string {
  const esc = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  // round caps and joins, 2.5 wide unless told, for every stroke (beads are zero-length round-capped strokes)
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" role="img"><title>${esc}</title><defs>${defs.join('')}</defs><g stroke-linecap="round" stroke-linejoin="round" stroke-width="2.5">${body}</g></svg>\n`;
}

function toneFor(category: string, L: Look): string {
  const tone = CATEGORY_TONE[category] ?? '#e3d6c2';
  // keep the product readable: a plain light product on a light tone gets a deeper, warmer tone
  if (category !== 'Jewellery' && !L.printed && Math.abs(lum(L.base) - lum(tone)) < 0.12)
    return mix(tone, '#b08a6e', 0.38);
  return tone;
}

type Art = { body: string; stage: 'hang' | 'plinth'; kind: Kind };
type View = SeedPicture['view'];

function kindFor(p: SeedProduct): Kind {
  const kind = KINDS.find((k) => k.re.test(p.name.toLowerCase()));
  if (!kind) throw new Error(`No silhouette for ${p.name}`);
  return kind;
}

/** The garment from behind: its kept pieces, plain, then what the back adds (seams, zip, vent...). */
function drawBack(L: Look, kind: Kind): string {
  caught = [];
  const front = kind.draw(L);
  const pieces = caught;
  caught = null;
  // the body is the largest piece (some kinds draw a pocket or a trim first)
  const area = (c: Caught) => {
    const b = box(c.d);
    return (b.x1 - b.x0) * (b.y1 - b.y0);
  };
  const mainAt = pieces.reduce((best, c, i) => (area(c) > area(pieces[best] ?? c) ? i : best), 0);
  const main = pieces[mainAt];
  if (!main) throw new Error(`Nothing to draw from behind for ${L.name}`);
  const spec = kind.back ?? {};
  const drawn = (spec.keep ?? [mainAt])
    .map((i) => {
      const c = pieces[i];
      if (!c) return '';
      const s = piece(L, c.d, c.fill, c.sheen);
      return spec.sheer?.includes(i) ? `<g opacity=".72">${s}</g>` : s;
    })
    .join('');
  const b = box(main.d);
  const add = spec.add ? spec.add(L, b, pieces) : `${backNeck(L)}${seam(L, b.y0 + 20, b.y1)}`;
  // trousers and skirts hang from the clip hanger, as in front
  const clips = clipHanger();
  return `${front.includes(clips) ? clips : hanger()}${drawn}${add}`;
}

function drawProduct(
  doc: Doc,
  p: SeedProduct,
  colour: string | null = null,
  view: View = 'piece',
): Art {
  const L = lookFor(doc, p, colour);
  const kind = kindFor(p);
  let body: string;
  if (view === 'detail' && p.category !== 'Jewellery') {
    // close up, cloth and leather show their grain: a fine twill over every drawn piece
    // twill: diagonals every 4 units (about 10 px at the zoom), across one 12-unit tile
    const lines = Array.from({ length: 7 }, (_, i) => `M${i * 4 - 12} 12L${i * 4} 0`).join('');
    grain = tile(
      doc,
      12,
      12,
      '',
      `<path d="${lines}" stroke="#000" stroke-opacity="${GRAIN}" stroke-width=".8"/>`,
    );
    body = kind.draw(L);
    grain = '';
  } else body = view === 'back' ? drawBack(L, kind) : kind.draw(L);
  if (kind.scale) {
    const s = kind.scale;
    const py = kind.stage === 'hang' ? 110 : 780;
    body = `<g transform="matrix(${s} 0 0 ${s} ${Math.round(400 - 400 * s)} ${Math.round(py - py * s)})">${body}</g>`;
  }
  return { body, stage: kind.stage, kind };
}

/** Where the detail zooms: the kind's focus, through its scale, kept inside the picture. */
function detailTransform(kind: Kind): string {
  const [fx, fy, z] = kind.focus;
  const s = kind.scale ?? 1;
  const py = kind.stage === 'hang' ? 110 : 780;
  const x = 400 + (fx - 400) * s;
  const y = py + (fy - py) * s;
  // the zoomed window (800/z × 1000/z) stays within the 800 × 1000 picture
  const cx = Math.min(Math.max(x, 400 / z), 800 - 400 / z);
  const cy = Math.min(Math.max(y, 500 / z), 1000 - 500 / z);
  const r = (n: number) => Math.round(n * 100) / 100;
  return `matrix(${z} 0 0 ${z} ${r(400 - cx * z)} ${r(500 - cy * z)})`;
}

function productSvg(p: SeedProduct, picture: Pick<SeedPicture, 'colour' | 'view' | 'alt'>): string {
  const doc = newDoc();
  // the detail and the back show the piece in its first colour
  const colour = picture.colour ?? p.colours?.[0] ?? null;
  const L = lookFor(newDoc(), p, colour);
  const tone = toneFor(p.category, L);
  const detail = picture.view === 'detail';
  hookless = detail;
  const art = drawProduct(doc, p, colour, picture.view);
  hookless = false;
  const plinthTone = p.category === 'Jewellery' ? '#a8916c' : tone;
  const stage =
    art.stage === 'hang'
      ? '<ellipse cx="400" cy="938" rx="250" ry="28" fill="url(#fs)"/>'
      : plinth(400, 780, 290, 80, plinthTone);
  const scene = `<rect width="800" height="1000" fill="url(#bg)"/>${stage}${art.body}`;
  // the detail: the same drawing, close, with finer outlines and a soft vignette
  const body = detail
    ? `<rect width="800" height="1000" fill="${tone}"/><g transform="${detailTransform(art.kind)}" stroke-width="1.1">${scene}</g><rect width="800" height="1000" fill="url(#vn)"/>`
    : scene;
  const vignette =
    '<radialGradient id="vn" cx=".5" cy=".48" r=".78"><stop offset=".5" stop-color="#1d1a1c" stop-opacity="0"/><stop offset="1" stop-color="#1d1a1c" stop-opacity=".24"/></radialGradient>';
  return svg(
    800,
    1000,
    picture.alt,
    [sharedDefs(tone, 0.8, plinthTone), ...(detail ? [vignette] : []), ...doc.defs],
    body,
  );
}

// ---------------------------------------------------------------- share pictures (1200 × 630)

/** "duuka" in the shop's display face (Cormorant Garamond), as paths: no font needed to draw it. */
const wordmark = (() => {
  const require = createRequire(import.meta.url);
  const fontkit = require('@pdf-lib/fontkit') as {
    create(buffer: Buffer): {
      unitsPerEm: number;
      layout(text: string): {
        glyphs: { path: { toSVG(): string } }[];
        positions: { xAdvance: number }[];
      };
    };
  };
  const file = require.resolve(
    '@fontsource-variable/cormorant-garamond/files/cormorant-garamond-latin-wght-normal.woff2',
  );
  const font = fontkit.create(readFileSync(file));
  const run = font.layout('duuka');
  let x = 0;
  const parts = run.glyphs.map((g, i) => {
    const part = `<path transform="translate(${x} 0)" d="${g.path.toSVG()}"/>`;
    x += run.positions[i]?.xAdvance ?? 0;
    return part;
  });
  return { svg: parts.join(''), width: x, em: font.unitsPerEm };
})();

function shareSvg(p: SeedProduct, first: SeedPicture): string {
  const L = lookFor(newDoc(), p, first.colour);
  const tone = toneFor(p.category, L);
  const inner = productSvg(p, first)
    .replace(/^<svg /, '<svg x="{X}" y="{Y}" width="{W}" height="{H}" ')
    .replace(/\n$/, '');
  const h = 530;
  const w = (h * 4) / 5;
  const x = (1200 - w) / 2;
  const y = (630 - h) / 2;
  const frame = inner
    .replace('{X}', String(x))
    .replace('{Y}', String(y))
    .replace('{W}', String(w))
    .replace('{H}', String(h));
  const ink = lum(tone) > 0.45 ? dark(tone, 0.62) : light(tone, 0.7);
  const size = 34;
  const s = size / wordmark.em;
  const mark = `<g fill="${ink}" transform="matrix(${s} 0 0 ${-s} ${1200 - 48 - wordmark.width * s} ${630 - 40})">${wordmark.svg}</g>`;
  const defs = [
    `<linearGradient id="sbg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light(tone, 0.22)}"/><stop offset="1" stop-color="${dark(tone, 0.06)}"/></linearGradient>`,
    '<filter id="sdw" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="14"/></filter>',
  ];
  return svg(
    1200,
    630,
    p.name,
    defs,
    `<rect width="1200" height="630" fill="url(#sbg)"/><rect x="${x + 6}" y="${y + 14}" width="${w}" height="${h}" fill="#1d1a1c" fill-opacity=".22" filter="url(#sdw)"/>${frame}${mark}`,
  );
}

function placeholderSvg(): string {
  const tone = '#ddd3c3';
  return svg(
    800,
    1000,
    'Image unavailable',
    [sharedDefs(tone, 0.8)],
    `<rect width="800" height="1000" fill="url(#bg)"/><ellipse cx="400" cy="938" rx="200" ry="22" fill="url(#fs)"/><g opacity=".75">${hanger(168)}</g>`,
  );
}

// ---------------------------------------------------------------- heroes (1600 × 900, calm left)

const byName = (name: string): SeedProduct => {
  const p = products.find((x) => x.name === name);
  if (!p) throw new Error(`Hero needs ${name}`);
  return p;
};

function rail(x0: number, x1: number, y: number, floor: number): string {
  const m = '#8f8b84';
  return `<path d="M${x0} ${y}V${floor}M${x1} ${y}V${floor}" stroke="${m}" stroke-width="10"/><path d="M${x0 - 30} ${floor}H${x0 + 30}M${x1 - 30} ${floor}H${x1 + 30}" stroke="${m}" stroke-width="10"/><path d="M${x0 - 8} ${y}H${x1 + 8}" stroke="${dark(m, 0.2)}" stroke-width="12"/>`;
}

/** Place an 800×1000 product drawing at (x, y) (its top-left) with scale s. */
function place(doc: Doc, name: string, x: number, y: number, s: number): string {
  const art = drawProduct(doc, byName(name));
  return `<g transform="matrix(${s} 0 0 ${s} ${x} ${y})">${art.body}</g>`;
}

/** A staged scene (heroes, panels): the floor at `floor` of the height, a soft light on the calm part. */
function sceneSvg(
  size: { w: number; h: number; floor: number; light: { cx: number; cy: number; r: number } },
  title: string,
  tone: string,
  body: (doc: Doc) => string,
): string {
  const doc = newDoc();
  const content = body(doc);
  const { w, h, floor, light: at } = size;
  const veil = `<radialGradient id="vg" cx="${at.cx}" cy="${at.cy}" r="${at.r}"><stop offset="0" stop-color="${light(tone, 0.35)}" stop-opacity=".7"/><stop offset="1" stop-color="${light(tone, 0.35)}" stop-opacity="0"/></radialGradient>`;
  return svg(
    w,
    h,
    title,
    [sharedDefs(tone, floor), veil, ...doc.defs],
    `<rect width="${w}" height="${h}" fill="url(#bg)"/><rect width="${w}" height="${h}" fill="url(#vg)"/>${content}`,
  );
}

const HERO = { w: 1600, h: 900, floor: 0.82, light: { cx: 0.2, cy: 0.45, r: 0.6 } };
const heroSvg = (title: string, tone: string, body: (doc: Doc) => string) =>
  sceneSvg(HERO, title, tone, body);

const HEROES: Record<string, () => string> = {
  'new-collection': () =>
    heroSvg('New collection', '#e6d2c4', (doc) => {
      const hangAt = (name: string, cx: number, s: number) =>
        place(doc, name, cx - 400 * s, 110 - 128 * s, s);
      return `<ellipse cx="1170" cy="836" rx="440" ry="26" fill="url(#fs)"/>${rail(790, 1550, 110, 826)}${hangAt('Linen Sunday Slip Dress', 950, 0.76)}${hangAt('Ankara Wrap Dress', 1180, 0.8)}${hangAt('Kwanjula Satin Maxi Dress', 1400, 0.78)}`;
    }),
  'premium-quality': () =>
    heroSvg('Premium quality', '#dcc1aa', (doc) => {
      const onTop = (name: string, x: number, top: number, s: number) =>
        place(doc, name, x - 400 * s, top - 780 * s, s);
      return `${plinth(1010, 600, 190, 210, '#dcc1aa')}${plinth(1380, 520, 140, 290, '#dcc1aa')}${onTop('Kisementi Leather Tote', 1010, 604, 0.72)}${onTop('Bone and Brass Cuff', 1380, 520 + 36 * 0.55, 0.55)}${onTop('Kisementi Leather Penny Loafers', 1190, 850, 0.6)}`;
    }),
  'limited-edition': () =>
    heroSvg('Limited edition', '#d3ccb4', (doc) => {
      const onTop = (name: string, x: number, top: number, s: number) =>
        place(doc, name, x - 400 * s, top - 780 * s, s);
      return `${plinth(1390, 560, 150, 260, '#d3ccb4')}<ellipse cx="990" cy="842" rx="250" ry="24" fill="url(#fs)"/>${rail(820, 1160, 96, 836)}${place(doc, 'Gomesi-Inspired Silk Gown', 990 - 400 * 0.8, 96 - 128 * 0.8, 0.8)}${onTop('Barkcloth Evening Clutch', 1390, 566, 0.62)}`;
    }),
};

// ------------------------------------------- panels (1000 × 1250 portrait, calm top for a caption)

const PANEL = { w: 1000, h: 1250, floor: 0.84, light: { cx: 0.3, cy: 0.12, r: 0.55 } };
const panelSvg = (title: string, tone: string, body: (doc: Doc) => string) =>
  sceneSvg(PANEL, title, tone, body);

/** The sign-in and join panels beside the account forms: whole still lifes, nothing cut at an edge. */
const PANELS: Record<string, () => string> = {
  'sign-in': () =>
    panelSvg('A leather tote, a brass cuff and loafers', '#dcc1aa', (doc) => {
      const onTop = (name: string, x: number, top: number, s: number) =>
        place(doc, name, x - 400 * s, top - 780 * s, s);
      return `${plinth(750, 850, 120, 200, '#dcc1aa')}${plinth(420, 910, 210, 140, '#dcc1aa')}${onTop('Bone and Brass Cuff', 750, 850 + 36 * 0.46, 0.46)}${onTop('Kisementi Leather Tote', 420, 914, 0.68)}${onTop('Kisementi Leather Penny Loafers', 660, 1140, 0.52)}`;
    }),
  join: () =>
    panelSvg('Two dresses on a rail and a straw hat', '#e6d2c4', (doc) => {
      const hangAt = (name: string, cx: number, s: number) =>
        place(doc, name, cx - 400 * s, 330 - 128 * s, s);
      return `<ellipse cx="660" cy="1046" rx="330" ry="22" fill="url(#fs)"/>${rail(420, 900, 330, 1040)}${hangAt('Ankara Wrap Dress', 560, 0.72)}${hangAt('Kwanjula Satin Maxi Dress', 770, 0.72)}${place(doc, 'Straw Wide-Brim Hat', 250 - 400 * 0.5, 1180 - 780 * 0.5, 0.5)}`;
    }),
};

// ---------------------------------------------------------------- write

function write(rel: string, content: string): number {
  const file = join(PUBLIC, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return Buffer.byteLength(content);
}

/**
 * Encoders, fixed so the same drawing always gives the same bytes. Flat art: WebP keeps edges
 * crisp at a modest quality with sharp chroma (smartSubsample); the JPEG fallback is mozjpeg.
 */
const WEBP = { quality: 74, effort: 6, smartSubsample: true } as const;
const JPEG = { quality: 78, mozjpeg: true } as const;
const JPEG_WIDTH = 800;

/** An SVG drawn at `width` pixels (its viewBox scaled: vectors stay sharp at every size). */
function sized(svgText: string, width: number, height: number): Buffer {
  return Buffer.from(svgText.replace(/^<svg /, `<svg width="${width}" height="${height}" `));
}

type Written = { file: string; bytes: number };

/** One picture: drawn once at the largest width, then every WebP width and the JPEG fallback. */
async function rasterise(svgText: string, url: string): Promise<Written[]> {
  const stem = url.replace(/\.jpg$/, '');
  const largest = Math.max(...PICTURE_WIDTHS, JPEG_WIDTH);
  const { data, info } = await sharp(sized(svgText, largest, (largest * 5) / 4))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const out: Written[] = [];
  const save = async (file: string, image: Sharp) => {
    const target = join(PUBLIC, file);
    mkdirSync(dirname(target), { recursive: true });
    const { size } = await image.toFile(target);
    out.push({ file, bytes: size });
  };
  for (const width of PICTURE_WIDTHS) {
    const image = sharp(data, raw);
    if (width !== info.width) image.resize(width);
    await save(`${stem}-${width}.webp`, image.webp(WEBP));
  }
  const jpeg = sharp(data, raw);
  if (JPEG_WIDTH !== info.width) jpeg.resize(JPEG_WIDTH);
  await save(url, jpeg.jpeg(JPEG));
  return out;
}

async function productFiles(p: SeedProduct): Promise<Written[]> {
  const pictures = seedPictures(p);
  const out: Written[] = [];
  for (const picture of pictures)
    out.push(...(await rasterise(productSvg(p, picture), picture.url)));
  const first = pictures[0];
  if (!first) throw new Error(`${p.name} has no pictures`);
  const share = seedShareImage(p);
  const target = join(PUBLIC, share);
  mkdirSync(dirname(target), { recursive: true });
  const { size } = await sharp(sized(shareSvg(p, first), 1200, 630))
    .removeAlpha()
    .jpeg(JPEG)
    .toFile(target);
  out.push({ file: share, bytes: size });
  return out;
}

/** Run `work` over `items`, `limit` at a time (sharp's work runs off the main thread). */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

const started = performance.now();
// one thread per picture inside libvips; the pictures themselves run side by side
sharp.concurrency(1);
sharp.cache(false);
// `npm run art -- tee loafer` redraws only the products whose names contain those words
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const chosen = only.length
  ? products.filter((p) => only.some((word) => p.name.toLowerCase().includes(word)))
  : products;
// a full run starts from an empty folder, so nothing stale (old names, old .svg art) survives
const PRODUCTS = join(PUBLIC, 'images', 'products');
if (only.length === 0) rmSync(PRODUCTS, { recursive: true, force: true });
for (const p of chosen)
  rmSync(dirname(join(PUBLIC, seedShareImage(p))), { recursive: true, force: true });
const written = (await pool(chosen, availableParallelism(), productFiles)).flat();

let svgBytes = write(join('images', 'placeholder.svg'), placeholderSvg());
for (const [file, make] of Object.entries(HEROES))
  svgBytes += write(join('images', 'hero', `${file}.svg`), make());
for (const [file, make] of Object.entries(PANELS))
  svgBytes += write(join('images', 'panels', `${file}.svg`), make());

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const groups = new Map<string, number[]>();
for (const { file, bytes } of written) {
  const key = file.endsWith('share.jpg')
    ? 'share.jpg'
    : file.endsWith('.jpg')
      ? 'jpg 800'
      : `webp ${/-(\d+)\.webp$/.exec(file)?.[1]}`;
  groups.set(key, [...(groups.get(key) ?? []), bytes]);
}
const total = written.reduce((sum, w) => sum + w.bytes, 0);
console.log(
  `Wrote ${written.length} files for ${chosen.length} products: ${(total / 1024 / 1024).toFixed(2)} MB in all, in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
for (const [key, sizes] of groups)
  console.log(
    `  ${key.padEnd(10)} ${String(sizes.length).padStart(4)} files, average ${kb(sizes.reduce((a, b) => a + b, 0) / sizes.length)}, largest ${kb(Math.max(...sizes))}`,
  );
console.log(`Placeholder, heroes and panels (SVG): ${kb(svgBytes)}.`);
