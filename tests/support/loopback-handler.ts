// A fetch handler of the shop's (a webhook's, a callback's) served on loopback, so a fake outside
// service can call it over real HTTP as the provider calls the Worker.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackHandler = { url: string; close(): Promise<void> };

async function requestOf(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  return new Request(new URL(incoming.url ?? '/', origin), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
  });
}

/** Serves `handle` at http://127.0.0.1:{free port}{path}; `url` is that address. */
export async function serveOnLoopback(
  path: string,
  handle: (request: Request) => Promise<Response>,
): Promise<LoopbackHandler> {
  const server = createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host ?? '127.0.0.1'}`;
    requestOf(incoming, origin)
      .then(handle)
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        outgoing.writeHead(500).end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
