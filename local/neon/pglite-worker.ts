// Embedded PGlite in a process of its own (started by pgliteBackend in pglite-backend.ts). PGlite
// runs each statement synchronously in WebAssembly and ignores statement_timeout, so in the
// endpoint's own thread one slow statement froze every request (and the dev server beside it).
// Here it freezes only this process, and the endpoint stops a statement by killing it. Messages
// come over the IPC channel (advanced serialization); the first one says where the data lives.
import { once } from 'node:events';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

type Request =
  | { id: number; kind: 'exec'; message: Uint8Array }
  | { id: number; kind: 'dump' | 'close' };

const send = process.send?.bind(process);
if (!send) throw new Error('pglite-worker.ts runs as a child process with an IPC channel');
// The endpoint's process went away (ended, or killed): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
// Ctrl-C reaches the whole process group: the endpoint's process decides when PGlite closes
// (cleanly, so the next start needs no recovery), not the terminal.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});

const [start] = (await once(process, 'message')) as [
  { kind: 'start'; dataDir: string; loadDataDir?: Uint8Array<ArrayBuffer> },
];
const { dataDir, loadDataDir } = start;

let db: PGlite | undefined;
try {
  db = await PGlite.create({
    dataDir,
    loadDataDir: loadDataDir && new Blob([loadDataDir]),
    extensions: { pg_trgm },
  });
} catch (error) {
  // A damaged data directory throws `RuntimeError: Aborted()`: report one line, not a dump.
  send({ kind: 'failed', message: String(error).split('\n')[0]?.slice(0, 200) });
}

if (db) {
  const pglite = db;
  process.on('message', async (request: Request) => {
    try {
      if (request.kind === 'exec') {
        const { messages } = await pglite.execProtocol(request.message, {
          throwOnError: false,
          syncToFs: false,
        });
        await pglite.syncToFs();
        // Plain objects: an Error's message and class do not survive the channel.
        const plain = messages.map((m) => ({ ...m, message: (m as { message?: string }).message }));
        send({ id: request.id, messages: plain });
      } else if (request.kind === 'close') {
        await pglite.close(); // a clean shutdown: the next start needs no recovery
        send({ id: request.id });
      } else {
        const dump = await pglite.dumpDataDir();
        send({ id: request.id, dump: new Uint8Array(await dump.arrayBuffer()) });
      }
    } catch (error) {
      send({ id: request.id, error: String(error) });
    }
  });
  send({ kind: 'ready' });
}
