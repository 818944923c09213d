// A stand-in for the Cloudflare Images binding (`env.IMAGES`) in Node tests, where no workerd
// runs: `input(stream).transform({ width }).output({ format })` made with sharp, as wrangler's and
// the Vite plugin's local Images do (miniflare uses sharp too). `npm start` and the browser tests
// use that local Images itself.
import sharp from 'sharp';
import type { PhotoImages } from '#server/services/photos-service.ts';

type Format = 'image/avif' | 'image/webp' | 'image/jpeg';

export function sharpImages(): PhotoImages & { made: number } {
  const images = {
    made: 0,
    input(stream: ReadableStream<Uint8Array>) {
      const widths: number[] = [];
      const transformer = {
        transform(transform: { width?: number }) {
          if (transform.width) widths.push(transform.width);
          return transformer;
        },
        async output({ format }: { format: Format }) {
          const bytes = Buffer.from(await new Response(stream).arrayBuffer());
          let picture = sharp(bytes, { autoOrient: true });
          for (const width of widths) {
            picture = picture.resize({ width, withoutEnlargement: true });
          }
          const copy = await (format === 'image/avif'
            ? picture.avif()
            : format === 'image/webp'
              ? picture.webp()
              : picture.jpeg()
          ).toBuffer();
          images.made += 1;
          return {
            image: () => new Response(new Uint8Array(copy)).body as ReadableStream<Uint8Array>,
            contentType: () => format,
          };
        },
      };
      return transformer;
    },
  };
  return images;
}
