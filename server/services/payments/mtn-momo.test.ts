// MTN MoMo's own codes in the shop's words: what the payer's phone said (a FAILED status) and why
// MTN refused a request to pay (the shop's set-up, never the payer's refusal).
import { describe, expect, it } from 'vitest';
import { mtnFailedReason, mtnRequestRefusal } from './mtn-momo.ts';

describe("MTN's FAILED reasons", () => {
  it.each([
    ['INTERNAL_PROCESSING_ERROR', 'not-enough-funds'], // mostly insufficient funds
    ['COULD_NOT_PERFORM_TRANSACTION', 'expired'], // the payer never entered the PIN
    ['APPROVAL_REJECTED', 'declined'],
    ['EXPIRED', 'expired'],
    ['PAYER_NOT_FOUND', 'not-registered'],
    ['NOT_ENOUGH_FUNDS', 'not-enough-funds'],
    ['PAYER_LIMIT_REACHED', 'not-enough-funds'],
  ])('%s: %s', (code, reason) => {
    expect(mtnFailedReason(code)).toBe(reason);
    // The status may carry the reason as {code, message}.
    expect(mtnFailedReason({ code, message: 'text' })).toBe(reason);
  });

  it('an unknown or missing reason is a decline', () => {
    expect(mtnFailedReason('SOMETHING_NEW')).toBe('declined');
    expect(mtnFailedReason(undefined)).toBe('declined');
    expect(mtnFailedReason({ code: 42 })).toBe('declined');
  });
});

describe('MTN refusing a request to pay', () => {
  it.each([
    [500, 'INVALID_CURRENCY'], // the sandbox takes EUR only, mtnuganda UGX only
    [500, 'NOT_ALLOWED'],
    [500, 'NOT_ALLOWED_TARGET_ENVIRONMENT'],
    [400, 'INVALID_CALLBACK_URL_HOST'], // the callback host is not the one registered
    [409, 'RESOURCE_ALREADY_EXIST'], // a reused X-Reference-Id
    [400, 'INVALID_REQUEST'],
    [401, undefined], // keys refused (after one fresh token)
    [403, undefined],
  ])('HTTP %s %s: the shop’s set-up', (status, code) => {
    expect(mtnRequestRefusal(status, code ? { code, message: 'm' } : 'Access denied')).toBe(
      'setup',
    );
  });

  it('a number MTN does not know is not-registered; another 5xx is unavailable', () => {
    expect(mtnRequestRefusal(400, { code: 'PAYER_NOT_FOUND' })).toBe('not-registered');
    expect(mtnRequestRefusal(500, { code: 'INTERNAL_PROCESSING_ERROR' })).toBe('unavailable');
    expect(mtnRequestRefusal(503, '')).toBe('unavailable');
  });
});
