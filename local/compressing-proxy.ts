// A proxy in front of the Worker that compresses text as Cloudflare does for a browser (brotli,
// else gzip; workerd locally does neither). Quality 4, a level for compressing on the fly, as
// Cloudflare's edge does. `npm run audit`, `npm run bench` and the bytes budgets
// (tests/e2e/visit-bytes.test.ts) weigh pages through it, so bytes on the wire here are the
// bytes a shopper's bundle pays for.
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|jsonl|xml|manifest\+json)|image\/svg)/;

/** Serves `target` (an origin such as http://127.0.0.1:4000) compressed on 127.0.0.1. */
export async function compressingProxy(target: string) {
  const upstreamUrl = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        host: upstreamUrl.hostname,
        port: upstreamUrl.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          const accepted = String(incoming.headers['accept-encoding'] ?? '');
          const encoding = /\bbr\b/.test(accepted) ? 'br' : /gzip/.test(accepted) ? 'gzip' : null;
          if (
            encoding &&
            COMPRESSIBLE.test(String(headers['content-type'] ?? '')) &&
            body.length > 512
          ) {
            body =
              encoding === 'br'
                ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
                : gzipSync(body);
            headers['content-encoding'] = encoding;
            headers.vary = 'accept-encoding';
          }
          delete headers['transfer-encoding'];
          headers['content-length'] = String(body.length);
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
