// Embedded PGlite in a worker thread (started by pgliteBackend in neon-endpoint.ts). PGlite runs
// each statement synchronously in WebAssembly and ignores statement_timeout, so in the endpoint's
// own thread one slow statement froze every request (and the dev server beside it). Here it
// freezes only this thread, and the endpoint stops a statement by ending the thread.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

type Request =
  | { id: number; kind: 'exec'; message: Uint8Array }
  | { id: number; kind: 'dump' | 'close' };

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs in a worker thread');
const { dataDir, loadDataDir } = workerData as {
  dataDir: string;
  loadDataDir?: Uint8Array<ArrayBuffer>;
};

let db: PGlite | undefined;
try {
  db = await PGlite.create({
    dataDir,
    loadDataDir: loadDataDir && new Blob([loadDataDir]),
    extensions: { pg_trgm },
  });
} catch (error) {
  // A damaged data directory throws `RuntimeError: Aborted()`: report one line, not a dump.
  port.postMessage({ kind: 'failed', message: String(error).split('\n')[0]?.slice(0, 200) });
}

if (db) {
  const pglite = db;
  port.on('message', async (request: Request) => {
    try {
      if (request.kind === 'exec') {
        const { messages } = await pglite.execProtocol(request.message, {
          throwOnError: false,
          syncToFs: false,
        });
        await pglite.syncToFs();
        // Plain objects: an Error's message and class do not survive postMessage.
        const plain = messages.map((m) => ({ ...m, message: (m as { message?: string }).message }));
        port.postMessage({ id: request.id, messages: plain });
      } else if (request.kind === 'close') {
        await pglite.close(); // a clean shutdown: the next start needs no recovery
        port.postMessage({ id: request.id });
      } else {
        const dump = await pglite.dumpDataDir();
        port.postMessage({ id: request.id, dump: new Uint8Array(await dump.arrayBuffer()) });
      }
    } catch (error) {
      port.postMessage({ id: request.id, error: String(error) });
    }
  });
  port.postMessage({ kind: 'ready' });
}
