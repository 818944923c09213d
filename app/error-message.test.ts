import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { errorMessage, UNEXPECTED } from './error-message';

/** The error a call gets when the server answered: tRPC's error response, as the link reads it. */
function answered(message: string, code = 'BAD_REQUEST', httpStatus = 400) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus } } });
}

/** The error a call gets when no answer came (offline): fetch's own failure, wrapped. */
const offline = () => TRPCClientError.from(new TypeError('Failed to fetch'));

describe('errorMessage', () => {
  it("shows the server's refusal, whatever the screen's fallback", () => {
    expect(errorMessage(answered('That size is sold out.'), 'The piece could not be added.')).toBe(
      'That size is sold out.',
    );
    expect(errorMessage(answered('That size is sold out.'))).toBe('That size is sold out.');
  });

  it("shows the server's masked 500 as it wrote it", () => {
    const failure = answered(UNEXPECTED, 'INTERNAL_SERVER_ERROR', 500);
    expect(errorMessage(failure, 'The desk could not be loaded.')).toBe(UNEXPECTED);
  });

  it("shows the screen's fallback when no answer came, or the error was not the server's", () => {
    expect(errorMessage(offline(), 'The desk could not be loaded.')).toBe(
      'The desk could not be loaded.',
    );
    expect(errorMessage(new Error('boom'), 'The desk could not be loaded.')).toBe(
      'The desk could not be loaded.',
    );
    expect(errorMessage(offline(), '')).toBe('');
    expect(errorMessage(offline(), UNEXPECTED)).toBe(UNEXPECTED);
  });

  it("shows, in a route's error view, the error's own message, even rebuilt as a plain Error", () => {
    expect(errorMessage(new Error('No such category.'))).toBe('No such category.');
    expect(errorMessage(offline())).toBe('Failed to fetch');
    expect(errorMessage(new Error(''))).toBe(UNEXPECTED);
    expect(errorMessage('not an error')).toBe(UNEXPECTED);
  });
});
