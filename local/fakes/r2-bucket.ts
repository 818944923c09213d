// An in-memory stand-in for a Cloudflare R2 bucket binding (the Workers `R2Bucket` API), for
// Node tests, where no workerd is running. It fakes the part of that API the shop uses: `put(key,
// value, { httpMetadata })` stores bytes (ArrayBuffer, a typed array, a string, a Blob or a
// stream) and answers an object's metadata; `get(key)` answers the object with its `body` stream,
// `arrayBuffer()`/`text()`, `httpEtag` (the quoted MD5 of the bytes, as R2 gives it) and
// `httpMetadata`, or null when absent; `head(key)` the same without the body; `delete(key | keys)`
// removes, silently when absent. `npm start` and the browser tests use workerd's own R2 emulation
// instead (state under .wrangler/state), so this fake only stands in where the real thing can't run.
import { createHash } from 'node:crypto';

type HttpMetadata = { contentType?: string; cacheControl?: string };
type PutValue = ArrayBuffer | ArrayBufferView | string | Blob | ReadableStream | null;

export type MemoryObject = {
  key: string;
  size: number;
  etag: string;
  httpEtag: string;
  uploaded: Date;
  httpMetadata: HttpMetadata;
};

export type MemoryObjectBody = MemoryObject & {
  body: ReadableStream<Uint8Array>;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
};

async function bytesOf(value: PutValue): Promise<Uint8Array> {
  if (value === null) return new Uint8Array();
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value.slice(0));
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(
      value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength),
    );
  }
  return new Uint8Array(await new Response(value).arrayBuffer());
}

export class MemoryBucket {
  readonly #objects = new Map<string, { meta: MemoryObject; bytes: Uint8Array }>();

  async put(key: string, value: PutValue, options?: { httpMetadata?: HttpMetadata }) {
    const bytes = await bytesOf(value);
    const etag = createHash('md5').update(bytes).digest('hex');
    const meta: MemoryObject = {
      key,
      size: bytes.byteLength,
      etag,
      httpEtag: `"${etag}"`,
      uploaded: new Date(),
      httpMetadata: { ...options?.httpMetadata },
    };
    this.#objects.set(key, { meta, bytes });
    return { ...meta };
  }

  async head(key: string): Promise<MemoryObject | null> {
    const stored = this.#objects.get(key);
    return stored ? { ...stored.meta } : null;
  }

  async get(key: string): Promise<MemoryObjectBody | null> {
    const stored = this.#objects.get(key);
    if (!stored) return null;
    const copy = () => stored.bytes.slice();
    return {
      ...stored.meta,
      body: new Response(copy()).body as ReadableStream<Uint8Array>,
      arrayBuffer: async () => copy().buffer,
      text: async () => new TextDecoder().decode(stored.bytes),
    };
  }

  async delete(keys: string | string[]): Promise<void> {
    for (const key of typeof keys === 'string' ? [keys] : keys) this.#objects.delete(key);
  }

  /** For tests: the keys stored now, sorted. */
  keys(): string[] {
    return [...this.#objects.keys()].sort();
  }
}

export function memoryBucket(): MemoryBucket {
  return new MemoryBucket();
}
