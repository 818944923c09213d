// A photo read from its own structure (issue 32, decision 0061): the JPEG's segments, the PNG's
// chunks (each CRC checked), WebP's RIFF chunks, HEIC's boxes. What this gives: the picture is a
// whole file of its type, its width and height as shown (after its orientation), and where the
// picture ends: bytes after that end (a phone's motion-photo video, or anything appended) are not
// kept. It does not decode the pixels themselves: Cloudflare Images does, when copies are made.
// Pure: no I/O, the same code in the Worker and the tests.

export type PhotoFileType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic';

/** A picture read whole: its size as shown, and `length`, the bytes up to its end. */
export type PhotoFile = { width: number; height: number; length: number };

/** Reads the picture's structure; null when it is not a whole picture of `type`. */
export function readPhotoFile(bytes: Uint8Array, type: PhotoFileType): PhotoFile | null {
  try {
    const read = READERS[type](bytes);
    if (!read || read.width < 1 || read.height < 1 || read.length > bytes.length) return null;
    return read;
  } catch (error) {
    if (error instanceof RangeError) return null; // a length that points past the file
    throw error;
  }
}

const READERS: Record<PhotoFileType, (bytes: Uint8Array) => PhotoFile | null> = {
  'image/jpeg': readJpeg,
  'image/png': readPng,
  'image/webp': readWebp,
  'image/heic': readHeif,
};

/** Big-endian reads that throw RangeError past the end (DataView does). */
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

// ——— JPEG (ITU T.81 B.1; JFIF/Exif) ———

/** Frames browsers decode: baseline, extended and progressive Huffman (SOF0, SOF1, SOF2). */
const SHOWN_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** Other frame types (lossless, hierarchical, arithmetic): no browser shows them everywhere. */
const OTHER_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * SOI, then marker segments each with its length, one frame header (SOF0/1/2) before the first
 * scan, each scan's entropy-coded data (where 0xFF is only ever stuffed or a restart marker) up to
 * the next marker, and EOI. The picture ends at EOI.
 */
function readJpeg(bytes: Uint8Array): PhotoFile | null {
  const data = view(bytes);
  if (data.getUint16(0) !== 0xffd8) return null;
  let at = 2;
  let frame: { width: number; height: number } | null = null;
  let scans = 0;
  let orientation = 1;
  for (;;) {
    if (bytes[at] !== 0xff) return null;
    while (bytes[at] === 0xff) at += 1; // fill bytes before a marker
    const marker = data.getUint8(at);
    at += 1;
    if (marker === 0xd9) {
      if (!frame || scans === 0) return null;
      const turned = orientation >= 5 && orientation <= 8; // 90° or 270°: width and height swap
      return {
        width: turned ? frame.height : frame.width,
        height: turned ? frame.width : frame.height,
        length: at,
      };
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // no length
    if (marker < 0xc0 || marker === 0xd8) return null; // reserved, or a second SOI
    const length = data.getUint16(at);
    if (length < 2 || at + length > bytes.length) return null;
    const segment = bytes.subarray(at + 2, at + length);
    if (OTHER_FRAMES.has(marker)) return null;
    if (SHOWN_FRAMES.has(marker)) {
      if (frame || segment.length < 6) return null;
      const header = view(segment);
      frame = { height: header.getUint16(1), width: header.getUint16(3) };
      if (frame.height === 0) return null; // height given later (DNL): not in photos
    }
    if (marker === 0xe1 && ascii(segment, 0, 6) === 'Exif\0\0') {
      orientation = exifOrientation(segment.subarray(6)) ?? orientation;
    }
    at += length;
    if (marker === 0xda) {
      if (!frame) return null;
      scans += 1;
      at = afterEntropyData(bytes, at);
      if (at < 0) return null; // cut off before its end
    }
  }
}

/** Where the entropy-coded data starting at `from` ends (its next marker), or -1: no end. */
function afterEntropyData(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    at = bytes.indexOf(0xff, at);
    if (at < 0 || at + 1 >= bytes.length) return -1;
    const next = bytes[at + 1] as number;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7))
      at += 2; // stuffed byte, restart
    else if (next === 0xff) at += 1;
    else return at;
  }
}

/** The Exif orientation tag (0x0112) of IFD0, 1–8; null when absent or unreadable. */
function exifOrientation(tiff: Uint8Array): number | null {
  try {
    const data = view(tiff);
    const order = ascii(tiff, 0, 2);
    if (order !== 'II' && order !== 'MM') return null;
    const little = order === 'II';
    const ifd = data.getUint32(4, little);
    const entries = data.getUint16(ifd, little);
    for (let i = 0; i < entries; i++) {
      const entry = ifd + 2 + i * 12;
      if (data.getUint16(entry, little) === 0x0112) {
        const value = data.getUint16(entry + 8, little);
        return value >= 1 && value <= 8 ? value : null;
      }
    }
    return null;
  } catch {
    return null; // a damaged Exif block: the picture itself may still be whole
  }
}

// ——— PNG (ISO/IEC 15948) ———

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The signature, IHDR first, chunks each with a matching CRC, image data, IEND last. */
function readPng(bytes: Uint8Array): PhotoFile | null {
  if (!PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return null;
  const data = view(bytes);
  let at = 8;
  let size: { width: number; height: number } | null = null;
  let imageData = false;
  for (;;) {
    const length = data.getUint32(at);
    const type = ascii(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length || !/^[A-Za-z]{4}$/.test(type)) return null;
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== data.getUint32(at + 8 + length)) {
      return null;
    }
    if (!size) {
      if (type !== 'IHDR' || length !== 13) return null;
      size = { width: data.getUint32(at + 8), height: data.getUint32(at + 12) };
      if (size.width > 0x7fffffff || size.height > 0x7fffffff) return null;
    } else if (type === 'IHDR') return null;
    if (type === 'IDAT') imageData = true;
    at = end;
    if (type === 'IEND') return imageData ? { ...size, length: at } : null;
  }
}

let crcTable: Uint32Array | undefined;
/** CRC-32 as PNG computes it over a chunk's type and data. */
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// ——— WebP (RFC 9649) ———

/**
 * RIFF, its size covering the chunks exactly, WEBP, then chunks that fit in it; the size from
 * VP8X's canvas, or the still picture's own VP8 (lossy) or VP8L (lossless) header. An animation
 * (no VP8/VP8L chunk at the top) is not a product photo.
 */
function readWebp(bytes: Uint8Array): PhotoFile | null {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return null;
  const data = view(bytes);
  const end = 8 + data.getUint32(0 + 4, true);
  if (end > bytes.length || end < 20) return null;
  let at = 12;
  let canvas: { width: number; height: number } | null = null;
  let picture: { width: number; height: number } | null = null;
  while (at < end) {
    const type = ascii(bytes, at, 4);
    const length = data.getUint32(at + 4, true);
    const body = at + 8;
    if (body + length > end) return null;
    if (type === 'VP8X' && at === 12 && length >= 10) {
      canvas = {
        width: 1 + (data.getUint32(body + 4, true) & 0xffffff),
        height: 1 + (data.getUint32(body + 7, true) & 0xffffff),
      };
    } else if (type === 'VP8 ' && !picture && length >= 10) {
      // A key frame (bit 0 clear), then the start code 9d 01 2a, then 14-bit width and height.
      if ((data.getUint8(body) & 1) !== 0 || data.getUint32(body + 3) >>> 8 !== 0x9d012a) {
        return null;
      }
      picture = {
        width: data.getUint16(body + 6, true) & 0x3fff,
        height: data.getUint16(body + 8, true) & 0x3fff,
      };
    } else if (type === 'VP8L' && !picture && length >= 5) {
      if (data.getUint8(body) !== 0x2f) return null;
      const bits = data.getUint32(body + 1, true);
      picture = { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
    }
    at = body + length + (length % 2); // chunks are padded to an even length
  }
  if (!picture) return null;
  return { ...(canvas ?? picture), length: end };
}

// ——— HEIC/HEIF (ISO/IEC 23008-12 over ISO/IEC 14496-12 boxes) ———

type Box = { type: string; body: Uint8Array };

/** The boxes inside `bytes`, each fitting in it; null when one does not. */
function boxesOf(bytes: Uint8Array): Box[] | null {
  const data = view(bytes);
  const boxes: Box[] = [];
  let at = 0;
  while (at < bytes.length) {
    let size = data.getUint32(at);
    let header = 8;
    if (size === 1) {
      size = data.getUint32(at + 8) * 2 ** 32 + data.getUint32(at + 12);
      header = 16;
    } else if (size === 0) size = bytes.length - at; // to the end
    if (size < header || at + size > bytes.length) return null;
    boxes.push({ type: ascii(bytes, at + 4, 4), body: bytes.subarray(at + header, at + size) });
    at += size;
  }
  return boxes;
}

/**
 * Top-level boxes covering the file exactly, `ftyp` first, a `meta` box whose primary item
 * (`pitm`) has an image size property (`ispe`, through `ipma`), turned by its `irot`.
 */
function readHeif(bytes: Uint8Array): PhotoFile | null {
  const top = boxesOf(bytes);
  if (top?.[0]?.type !== 'ftyp') return null;
  const meta = top.find((box) => box.type === 'meta');
  if (!meta) return null;
  const inMeta = boxesOf(meta.body.subarray(4)); // a full box: version and flags first
  const pitm = inMeta?.find((box) => box.type === 'pitm');
  const iprp = inMeta?.find((box) => box.type === 'iprp');
  if (!pitm || !iprp) return null;
  const pitmData = view(pitm.body);
  const primary = pitm.body[0] === 0 ? pitmData.getUint16(4) : pitmData.getUint32(4);
  const inIprp = boxesOf(iprp.body);
  const properties = inIprp?.find((box) => box.type === 'ipco');
  const ipma = inIprp?.find((box) => box.type === 'ipma');
  const ipco = properties && boxesOf(properties.body);
  if (!ipco || !ipma) return null;

  // ipma: for each item, the 1-based indexes of its properties in ipco.
  const map = view(ipma.body);
  const version = ipma.body[0] as number;
  const wideIndex = ((ipma.body[3] as number) & 1) === 1;
  let at = 8;
  let associated: number[] = [];
  for (let entry = 0, count = map.getUint32(4); entry < count; entry++) {
    const item = version < 1 ? map.getUint16(at) : map.getUint32(at);
    at += version < 1 ? 2 : 4;
    const links = map.getUint8(at);
    at += 1;
    const indexes: number[] = [];
    for (let i = 0; i < links; i++) {
      indexes.push(wideIndex ? map.getUint16(at) & 0x7fff : map.getUint8(at) & 0x7f);
      at += wideIndex ? 2 : 1;
    }
    if (item === primary) associated = indexes;
  }
  let size: { width: number; height: number } | null = null;
  let turned = false;
  for (const index of associated) {
    const property = ipco[index - 1];
    if (property?.type === 'ispe') {
      const ispe = view(property.body);
      size = { width: ispe.getUint32(4), height: ispe.getUint32(8) };
    }
    if (property?.type === 'irot') turned = ((property.body[0] as number) & 1) === 1;
  }
  if (!size) return null;
  return turned
    ? { width: size.height, height: size.width, length: bytes.length }
    : { ...size, length: bytes.length };
}
