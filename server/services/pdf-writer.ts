// A small PDF writer for the receipt (docs/decisions/0056-the-receipt-pdf-written-by-the-shop.md):
// pages of text in embedded TrueType fonts, filled and stroked rectangles and lines, document
// information. Text is written by glyph id (Type0 font, Identity-H) with a ToUnicode map, so a
// reader copies and searches it as typed. Runs in the Worker: web APIs only (CompressionStream).

export type Rgb = readonly [red: number, green: number, blue: number];

/** One TrueType font, parsed enough to place and measure its glyphs. */
export type PdfFont = {
  /** Whether the font has a glyph for this code point. */
  has(codePoint: number): boolean;
  /** The advance of the text at this size, in points. */
  widthOf(text: string, size: number): number;
};

export type TextOptions = {
  x: number;
  y: number;
  size: number;
  font: PdfFont;
  color: Rgb;
  /** Extra space after each letter, in points (PDF character spacing). */
  tracking?: number;
};

export type PdfPage = {
  text(value: string, options: TextOptions): void;
  rectangle(box: {
    x: number;
    y: number;
    width: number;
    height: number;
    fill?: Rgb;
    stroke?: Rgb;
    strokeWidth?: number;
  }): void;
  line(from: [number, number], to: [number, number], width: number, color: Rgb): void;
};

export type PdfInfo = { title: string; author: string; creator: string; created?: Date };

type Face = PdfFont & {
  name: string;
  bytes: Uint8Array;
  resource: string;
  /** Glyph id → the text it stands for, for each glyph written. */
  used: Map<number, string>;
  glyphOf(codePoint: number): number;
  advance(glyph: number): number;
  metrics: { unitsPerEm: number; ascent: number; descent: number; capHeight: number };
  box: [number, number, number, number];
};

/** A number as PDF writes it: at most three decimals, no exponent. */
const num = (value: number) => String(Math.round(value * 1000) / 1000);
const colour = ([r, g, b]: Rgb) => `${num(r)} ${num(g)} ${num(b)}`;
const hex4 = (value: number) => value.toString(16).padStart(4, '0');

/** A text string for the document information: UTF-16BE with its byte-order mark, in hex. */
function textString(value: string): string {
  let out = '<FEFF';
  for (let i = 0; i < value.length; i++) out += hex4(value.charCodeAt(i));
  return `${out}>`;
}

function pdfDate(date: Date): string {
  const iso = date.toISOString(); // 2026-11-14T11:05:00.000Z
  return `(D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z)`;
}

/** Reads what the writer needs from a TrueType file: cmap, advances, metrics, bounding box. */
function parseTrueType(bytes: Uint8Array, name: string, resource: string): Face {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0; i < view.getUint16(4); i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
    tables.set(tag, view.getUint32(at + 8));
  }
  const table = (tag: string) => {
    const at = tables.get(tag);
    if (at === undefined) throw new Error(`${name}: no ${tag} table`);
    return at;
  };
  const head = table('head');
  const unitsPerEm = view.getUint16(head + 18);
  const box: Face['box'] = [
    view.getInt16(head + 36),
    view.getInt16(head + 38),
    view.getInt16(head + 40),
    view.getInt16(head + 42),
  ];
  const hhea = table('hhea');
  const ascent = view.getInt16(hhea + 4);
  const descent = view.getInt16(hhea + 6);
  const metricCount = view.getUint16(hhea + 34);
  const os2 = tables.get('OS/2');
  const capHeight =
    os2 !== undefined && view.getUint16(os2) >= 2 ? view.getInt16(os2 + 88) : ascent;
  const hmtx = table('hmtx');
  const advance = (glyph: number) => view.getUint16(hmtx + 4 * Math.min(glyph, metricCount - 1));

  // The Unicode cmap: format 12 (all planes) when there is one, else format 4 (the BMP).
  const cmap = table('cmap');
  const glyphs = new Map<number, number>();
  let best: { at: number; format: number } | undefined;
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const platform = view.getUint16(cmap + 4 + 8 * i);
    const encoding = view.getUint16(cmap + 6 + 8 * i);
    const at = cmap + view.getUint32(cmap + 8 + 8 * i);
    const format = view.getUint16(at);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (unicode && (format === 12 || (format === 4 && best?.format !== 12))) best = { at, format };
  }
  if (!best) throw new Error(`${name}: no Unicode cmap`);
  if (best.format === 12) {
    for (let i = 0; i < view.getUint32(best.at + 12); i++) {
      const group = best.at + 16 + 12 * i;
      const first = view.getUint32(group);
      const last = view.getUint32(group + 4);
      const glyph = view.getUint32(group + 8);
      for (let code = first; code <= last; code++) glyphs.set(code, glyph + code - first);
    }
  } else {
    const segments = view.getUint16(best.at + 6) / 2;
    const ends = best.at + 14;
    const starts = ends + 2 * segments + 2;
    const deltas = starts + 2 * segments;
    const offsets = deltas + 2 * segments;
    for (let s = 0; s < segments; s++) {
      const first = view.getUint16(starts + 2 * s);
      const last = view.getUint16(ends + 2 * s);
      const delta = view.getInt16(deltas + 2 * s);
      const offset = view.getUint16(offsets + 2 * s);
      for (let code = first; code <= last && code !== 0xffff; code++) {
        let glyph: number;
        if (offset === 0) glyph = (code + delta) & 0xffff;
        else {
          const raw = view.getUint16(offsets + 2 * s + offset + 2 * (code - first));
          glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
        }
        if (glyph !== 0) glyphs.set(code, glyph);
      }
    }
  }

  const glyphOf = (codePoint: number) => glyphs.get(codePoint) ?? 0;
  return {
    name,
    bytes,
    resource,
    used: new Map(),
    glyphOf,
    advance,
    metrics: { unitsPerEm, ascent, descent, capHeight },
    box,
    has: (codePoint) => glyphs.has(codePoint),
    widthOf(text, size) {
      let units = 0;
      for (const char of text) units += advance(glyphOf(char.codePointAt(0) ?? 0));
      return (units * size) / unitsPerEm;
    },
  };
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart])
    .stream()
    .pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The ToUnicode map of the glyphs written (PDF 1.7 §9.10.3), at most 100 entries a block. */
function toUnicode(used: Map<number, string>): string {
  const entries = [...used].sort(([a], [b]) => a - b);
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    const lines = block.map(([glyph, text]) => {
      let utf16 = '';
      for (let k = 0; k < text.length; k++) utf16 += hex4(text.charCodeAt(k));
      return `<${hex4(glyph)}> <${utf16}>`;
    });
    blocks.push(`${block.length} beginbfchar\n${lines.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

export class PdfDocument {
  private readonly faces: Face[] = [];
  private readonly pages: { width: number; height: number; ops: string[] }[] = [];

  private readonly info: PdfInfo;

  constructor(info: PdfInfo) {
    this.info = info;
  }

  /** Embeds a TrueType font (the whole file) under its PostScript name. */
  font(bytes: Uint8Array, name: string): PdfFont {
    const face = parseTrueType(bytes, name, `F${this.faces.length + 1}`);
    this.faces.push(face);
    return face;
  }

  page(width: number, height: number): PdfPage {
    const ops: string[] = [];
    this.pages.push({ width, height, ops });
    const faces = this.faces;
    return {
      text(value, { x, y, size, font, color, tracking = 0 }) {
        const face = faces.find((f) => f === font);
        if (!face) throw new Error('a font of another document');
        let glyphs = '';
        for (const char of value) {
          const glyph = face.glyphOf(char.codePointAt(0) ?? 0);
          if (!face.used.has(glyph)) face.used.set(glyph, char);
          glyphs += hex4(glyph);
        }
        ops.push(
          `BT /${face.resource} ${num(size)} Tf ${num(tracking)} Tc ${colour(color)} rg ${num(x)} ${num(y)} Td <${glyphs}> Tj ET`,
        );
      },
      rectangle({ x, y, width: w, height: h, fill, stroke, strokeWidth = 1 }) {
        const paint = fill && stroke ? 'B' : fill ? 'f' : 'S';
        ops.push(
          `q ${fill ? `${colour(fill)} rg ` : ''}${stroke ? `${colour(stroke)} RG ${num(strokeWidth)} w ` : ''}${num(x)} ${num(y)} ${num(w)} ${num(h)} re ${paint} Q`,
        );
      },
      line([x1, y1], [x2, y2], w, color) {
        ops.push(
          `q ${colour(color)} RG ${num(w)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S Q`,
        );
      },
    };
  }

  async save(): Promise<Uint8Array> {
    const encoder = new TextEncoder();
    const objects: (string | Uint8Array)[] = [];
    /** Reserves an object number; its body is set later. */
    const reserve = () => objects.push('') as number;
    const set = (ref: number, body: string | Uint8Array) => {
      objects[ref - 1] = body;
    };
    const stream = async (dictionary: string, data: Uint8Array) => {
      const packed = await deflate(data);
      const head = `<< ${dictionary} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`;
      const parts = [encoder.encode(head), packed, encoder.encode('\nendstream')];
      return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
    };

    const catalog = reserve();
    const pageTree = reserve();
    const info = reserve();
    const fonts: string[] = [];
    for (const face of this.faces) {
      const scale = 1000 / face.metrics.unitsPerEm;
      const file = reserve();
      set(file, await stream(`/Length1 ${face.bytes.length}`, face.bytes));
      const descriptor = reserve();
      set(
        descriptor,
        `<< /Type /FontDescriptor /FontName /${face.name} /Flags 32 /FontBBox [${face.box.map((v) => num(v * scale)).join(' ')}] /ItalicAngle 0 /Ascent ${num(face.metrics.ascent * scale)} /Descent ${num(face.metrics.descent * scale)} /CapHeight ${num(face.metrics.capHeight * scale)} /StemV 80 /FontFile2 ${file} 0 R >>`,
      );
      const widths = [...face.used.keys()]
        .sort((a, b) => a - b)
        .map((glyph) => `${glyph} [${num(face.advance(glyph) * scale)}]`)
        .join(' ');
      const cid = reserve();
      set(
        cid,
        `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${face.name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /CIDToGIDMap /Identity /W [${widths}] >>`,
      );
      const unicode = reserve();
      set(unicode, await stream('', encoder.encode(toUnicode(face.used))));
      const type0 = reserve();
      set(
        type0,
        `<< /Type /Font /Subtype /Type0 /BaseFont /${face.name} /Encoding /Identity-H /DescendantFonts [${cid} 0 R] /ToUnicode ${unicode} 0 R >>`,
      );
      fonts.push(`/${face.resource} ${type0} 0 R`);
    }
    const kids: number[] = [];
    for (const { width, height, ops } of this.pages) {
      const contents = reserve();
      set(contents, await stream('', encoder.encode(ops.join('\n'))));
      const page = reserve();
      set(
        page,
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 ${num(width)} ${num(height)}] /Resources << /Font << ${fonts.join(' ')} >> >> /Contents ${contents} 0 R >>`,
      );
      kids.push(page);
    }
    set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
    set(
      pageTree,
      `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    );
    const { title, author, creator, created } = this.info;
    set(
      info,
      `<< /Title ${textString(title)} /Author ${textString(author)} /Creator ${textString(creator)} /Producer ${textString(creator)}${created && Number.isFinite(created.getTime()) ? ` /CreationDate ${pdfDate(created)}` : ''} >>`,
    );

    // The file: header, objects, the cross-reference table of their offsets, trailer.
    const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n')];
    let length = parts[0]?.length ?? 0;
    const add = (part: Uint8Array) => {
      parts.push(part);
      length += part.length;
    };
    const offsets: number[] = [];
    objects.forEach((body, index) => {
      offsets.push(length);
      add(encoder.encode(`${index + 1} 0 obj\n`));
      add(typeof body === 'string' ? encoder.encode(body) : body);
      add(encoder.encode('\nendobj\n'));
    });
    const xref = [
      'xref',
      `0 ${objects.length + 1}`,
      '0000000000 65535 f ',
      ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
      'trailer',
      `<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>`,
      'startxref',
      String(length),
      '%%EOF\n',
    ].join('\n');
    parts.push(encoder.encode(xref));
    return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
  }
}
