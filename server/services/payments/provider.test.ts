import { describe, expect, it } from 'vitest';
import { TokenCache } from './provider.ts';

describe('provider tokens', () => {
  it('keeps a token until shortly before it expires, and fetches it once for parallel callers', async () => {
    let fetched = 0;
    const tokens = new TokenCache(async () => ({ token: `t${++fetched}`, expiresIn: 3600 }));
    expect(await Promise.all([tokens.get(), tokens.get()])).toEqual(['t1', 't1']);
    expect(await tokens.get(Date.now() + 3_500_000)).toBe('t1');
    expect(await tokens.get(Date.now() + 3_600_000)).toBe('t2');
  });

  it('tries once more with a fresh token when the provider refuses the kept one', async () => {
    let fetched = 0;
    const tokens = new TokenCache(async () => ({ token: `t${++fetched}`, expiresIn: 3600 }));
    const seen: string[] = [];
    const answer = await tokens.call(async (bearer) => {
      seen.push(bearer);
      return new Response(null, { status: seen.length === 1 ? 401 : 202 });
    });
    expect(answer.status).toBe(202);
    expect(seen).toEqual(['Bearer t1', 'Bearer t2']);
    // Refused twice: the second refusal is the answer, no loop.
    const refused = await tokens.call(async () => new Response(null, { status: 401 }));
    expect(refused.status).toBe(401);
  });
});
