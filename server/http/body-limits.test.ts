import { describe, expect, it } from 'vitest';
import { BodyTooLarge, declaredTooLarge, limitBody } from './body-limits.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** A chunked upload of `chunks` × 64 KiB that records how far the server pulled it. */
function upload(chunks: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(64 * KiB).fill(1));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  const request = new Request('http://shop.test/api/trpc/x', {
    method: 'POST',
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, seen };
}

describe('declaredTooLarge', () => {
  const withLength = (length: string | null) =>
    new Request('http://shop.test/', {
      method: 'POST',
      headers: length === null ? {} : { 'content-length': length },
    });

  it('refuses a declared length over the limit, not one at it or a missing one', () => {
    expect(declaredTooLarge(withLength('1025'), 1024)).toBe(true);
    expect(declaredTooLarge(withLength('1024'), 1024)).toBe(false);
    expect(declaredTooLarge(withLength(null), 1024)).toBe(false);
  });
});

describe('limitBody', () => {
  it('passes a body within the limit through whole', async () => {
    const { request, seen } = upload(3);
    const limited = limitBody(request, 1 * MiB);
    expect((await limited.request.arrayBuffer()).byteLength).toBe(3 * 64 * KiB);
    expect(limited.exceeded()).toBe(false);
    expect(seen.pulled).toBe(3);
  });

  it('fails the read of a chunked body past the limit with BodyTooLarge', async () => {
    const { request, seen } = upload(640); // 40 MiB on its way
    const limited = limitBody(request, 1 * MiB);
    await expect(limited.request.arrayBuffer()).rejects.toBeInstanceOf(BodyTooLarge);
    expect(limited.exceeded()).toBe(true);
    // Reading stopped at the first chunk past the limit (+1: the upload's own read-ahead).
    expect(seen.pulled).toBe((1 * MiB) / (64 * KiB) + 2);
  });

  it('settle discards an unread body to its end, so the connection can be reused', async () => {
    const { request, seen } = upload(8);
    const limited = limitBody(request, 1 * MiB);
    await limited.settle();
    expect(seen.pulled).toBe(8);
    expect(seen.cancelled).toBe(false);
    expect(limited.exceeded()).toBe(false);
  });

  it('keeps for the route what settle received (a streamed answer reads its input later)', async () => {
    const { request, seen } = upload(8);
    const limited = limitBody(request, 1 * MiB);
    await limited.settle();
    expect(seen.pulled).toBe(8);
    expect((await limited.request.arrayBuffer()).byteLength).toBe(8 * 64 * KiB);
  });

  it('a read after settle passed the limit fails with BodyTooLarge', async () => {
    const { request } = upload(40);
    const limited = limitBody(request, 1 * MiB);
    await limited.settle();
    expect(limited.exceeded()).toBe(true);
    await expect(limited.request.arrayBuffer()).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it('settle cancels a body that runs past the drain allowance', async () => {
    const { request, seen } = upload(640);
    const limited = limitBody(request, 1 * MiB, 2 * MiB);
    await expect(limited.request.arrayBuffer()).rejects.toBeInstanceOf(BodyTooLarge);
    await limited.settle();
    expect(seen.pulled).toBe((2 * MiB) / (64 * KiB) + 2);
    expect(seen.cancelled).toBe(true);
  });

  it('leaves a request without a body as it is', async () => {
    const request = new Request('http://shop.test/');
    const limited = limitBody(request, 10);
    expect(limited.request).toBe(request);
    await limited.settle();
  });
});
