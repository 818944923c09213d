// Pictures for tests: real ones made with sharp (as a phone or a laptop would save them), and
// the box structure of an iPhone's HEIC, which sharp here cannot write (no HEVC encoder).
import sharp from 'sharp';

/** A plain picture of `width` × `height` in `format`. */
export const picture = (format: 'jpeg' | 'png' | 'webp', width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#a0522d' } })
    [format]()
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer));

const text = (value: string) => new TextEncoder().encode(value);
const u32 = (value: number) => [
  value >>> 24,
  (value >>> 16) & 0xff,
  (value >>> 8) & 0xff,
  value & 0xff,
];
const u16 = (value: number) => [value >>> 8, value & 0xff];

function box(type: string, ...body: (Uint8Array | number[])[]): Uint8Array {
  const content = body.flatMap((part) => [...part]);
  return new Uint8Array([...u32(8 + content.length), ...text(type), ...content]);
}
const fullBox = (type: string, version: number, ...body: (Uint8Array | number[])[]) =>
  box(type, [version, 0, 0, 0], ...body);

/**
 * A HEIC file's boxes: ftyp, meta (its primary item 1 with an image size, turned a quarter when
 * `turned`), then mdat. The coded picture itself is a stand-in: only the structure is real.
 */
export function heic(width: number, height: number, options: { turned?: boolean } = {}) {
  const properties = [
    fullBox('ispe', 0, u32(width), u32(height)),
    // A thumbnail's size, associated with another item: must not be taken for the photo's.
    fullBox('ispe', 0, u32(320), u32(240)),
    ...(options.turned ? [box('irot', [1])] : []),
  ];
  const primary = [0x81, ...(options.turned ? [0x03] : [])]; // essential ispe (1), irot (3)
  return new Uint8Array([
    ...box('ftyp', text('heic'), u32(0), text('mif1heic')),
    ...fullBox(
      'meta',
      0,
      fullBox('pitm', 0, u16(1)),
      box(
        'iprp',
        box('ipco', ...properties),
        fullBox('ipma', 0, u32(2), u16(1), [primary.length, ...primary], u16(2), [1, 0x82]),
      ),
    ),
    ...box('mdat', new Uint8Array(2048).fill(7)),
  ]);
}
