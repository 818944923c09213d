import { describe, expect, it } from 'vitest';
import { parseTransactionStatus, pesapalProblem } from './pesapal.ts';

// Bodies as Pesapal API 3.0 sends them (developer.pesapal.com and the answers seen from it).
const NO_ERROR = { error_type: null, code: null, message: null, call_back_url: null };

describe('Pesapal error bodies', () => {
  it('finds the error inside an HTTP 200 answer, in either spelling of its type', () => {
    expect(
      pesapalProblem({
        token: null,
        expiryDate: '0001-01-01T00:00:00',
        error: {
          error_type: 'api_error',
          code: 'invalid_consumer_key_or_secret_provided',
          message: '',
        },
        status: '500',
        message: null,
      }),
    ).toEqual({
      type: 'api_error',
      code: 'invalid_consumer_key_or_secret_provided',
      message: '',
    });
    expect(
      pesapalProblem({ error: { type: 'validation', code: 'x', message: 'Bad currency' } }),
    ).toEqual({ type: 'validation', code: 'x', message: 'Bad currency' });
    expect(pesapalProblem({ status: '400' })).toMatchObject({ code: 'status_400' });
    expect(pesapalProblem('<html>')).toMatchObject({ type: 'invalid_response' });
  });

  it('is no error when the error object is empty or null and the status is 200', () => {
    expect(pesapalProblem({ token: 't', error: null, status: '200' })).toBeNull();
    expect(pesapalProblem({ ipn_id: 'i', error: NO_ERROR, status: '200' })).toBeNull();
    expect(pesapalProblem({ order_tracking_id: 'o', status: 200 })).toBeNull();
  });
});

describe('Pesapal transaction status', () => {
  const base = {
    payment_method: 'Visa',
    amount: 150000,
    confirmation_code: '6513008693186320103009',
    merchant_reference: 'ref-1',
    currency: 'UGX',
    error: NO_ERROR,
    status: '200',
  };

  it('reads Completed, Failed, Reversed and Invalid by description or by code', () => {
    expect(
      parseTransactionStatus({ ...base, payment_status_description: 'Completed', status_code: 1 }),
    ).toEqual({
      state: 'completed',
      amount: 150000,
      currency: 'UGX',
      confirmationCode: '6513008693186320103009',
      merchantReference: 'ref-1',
      paymentMethod: 'Visa',
    });
    expect(parseTransactionStatus({ ...base, status_code: 1 })).toMatchObject({
      state: 'completed',
    });
    expect(
      parseTransactionStatus({ ...base, payment_status_description: 'Failed', status_code: 2 }),
    ).toEqual({ state: 'failed', reason: 'declined', merchantReference: 'ref-1' });
    expect(
      parseTransactionStatus({ ...base, payment_status_description: 'REVERSED', status_code: 3 }),
    ).toEqual({ state: 'reversed', merchantReference: 'ref-1' });
    expect(
      parseTransactionStatus({ ...base, payment_status_description: 'Invalid', status_code: 0 }),
    ).toEqual({ state: 'failed', reason: 'invalid', merchantReference: 'ref-1' });
  });

  it('takes INVALID "Pending Payment" (an error with status 500 inside HTTP 200) as still waiting', () => {
    expect(
      parseTransactionStatus({
        payment_method: '',
        amount: 150000,
        confirmation_code: '',
        payment_status_description: 'INVALID',
        description: 'Pending Payment',
        status_code: 0,
        merchant_reference: 'ref-1',
        currency: 'UGX',
        error: {
          error_type: 'api_error',
          code: 'payment_details_not_found',
          message: 'Pending Payment',
        },
        status: '500',
      }),
    ).toEqual({ state: 'pending' });
  });

  it('is nothing for a body with no payment status (an error alone, or not JSON)', () => {
    expect(
      parseTransactionStatus({
        error: { error_type: 'api_error', code: 'order_not_found', message: '' },
        status: '500',
      }),
    ).toBeNull();
    expect(parseTransactionStatus(null)).toBeNull();
    expect(parseTransactionStatus('Completed')).toBeNull();
  });
});
