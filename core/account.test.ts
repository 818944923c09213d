import { describe, expect, it } from 'vitest';
import {
  avatarProblem,
  changePasswordProblem,
  fullNameProblem,
  loginErrorText,
  passwordErrorText,
  registrationErrorText,
  sniffImageType,
} from './account.ts';

describe('auth error texts (spec: storefront §8, account §8)', () => {
  it('login', () => {
    expect(loginErrorText({ status: 403, code: 'EMAIL_NOT_VERIFIED' })).toBe(
      'Please verify your email before logging in.',
    );
    expect(loginErrorText({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD' })).toBe(
      'Invalid login credentials',
    );
    expect(loginErrorText({ status: 400, code: 'VALIDATION_ERROR' })).toBe(
      'Invalid login credentials',
    );
    expect(loginErrorText({ status: 0, message: 'Failed to fetch' })).toBe(
      'An unexpected error occurred during login.',
    );
    expect(loginErrorText({ status: 429, retryAfter: 42 })).toBe(
      'Too many attempts. Please wait 42 seconds and try again.',
    );
  });

  it('registration', () => {
    expect(registrationErrorText({ status: 422, code: 'USER_ALREADY_EXISTS' })).toBe(
      'User already registered. Please log in.',
    );
    expect(registrationErrorText({ status: 400, code: 'PASSWORD_TOO_SHORT' })).toBe(
      'Password must be at least 6 characters long.',
    );
    expect(
      registrationErrorText({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: '[body.email] Invalid email address',
      }),
    ).toBe('Please enter a valid email address.');
    expect(registrationErrorText({ status: 422, code: 'FAILED_TO_CREATE_USER' })).toBe(
      'Registration failed due to a database error. Please try again or contact support.',
    );
    expect(registrationErrorText({ status: 400, message: 'Something odd' })).toBe(
      'Auth error: Something odd',
    );
    expect(registrationErrorText({ status: 500 })).toBe(
      'An unexpected error occurred during registration. Please try again.',
    );
  });

  it('change password', () => {
    expect(passwordErrorText({ status: 400, code: 'PASSWORD_TOO_SHORT' })).toBe(
      'Password must be at least 6 characters long',
    );
    expect(passwordErrorText({ status: 400, code: 'PASSWORD_UNCHANGED' })).toBe(
      'New password must be different from current password',
    );
    expect(passwordErrorText({ status: 500, message: 'boom' })).toBe(
      'Failed to update password: boom',
    );
  });
});

describe('form rules', () => {
  it('full name: 2 to 100 characters after trimming, no markup', () => {
    expect(fullNameProblem('  ')).toBe('Full name is required');
    expect(fullNameProblem(' A ')).toBe('Full name must be between 2 and 100 characters.');
    expect(fullNameProblem(` ${'x'.repeat(100)} `)).toBeNull();
    expect(fullNameProblem('x'.repeat(101))).toBe(
      'Full name must be between 2 and 100 characters.',
    );
    expect(fullNameProblem('<b>Amara</b>')).toBe('Full name cannot contain < or >.');
  });

  it('change password (spec: account §5)', () => {
    expect(changePasswordProblem('', '')).toBe('All fields are required');
    expect(changePasswordProblem('abc', 'abc')).toBe(
      'New password must be at least 6 characters long',
    );
    expect(changePasswordProblem('abcdef', 'abcdeg')).toBe('New passwords do not match');
    expect(changePasswordProblem('abcdef', 'abcdef', 'abcdef')).toBe(
      'New password must be different from current password',
    );
    expect(changePasswordProblem('abcdef', 'abcdef', 'old-one')).toBeNull();
  });

  it('avatar: allowed types, under 2MB', () => {
    expect(avatarProblem({ type: 'image/webp', size: 2 * 1024 * 1024 - 1 })).toBeNull();
    expect(avatarProblem({ type: 'image/png', size: 2 * 1024 * 1024 })).toBe(
      'Image size must be less than 2MB',
    );
    expect(avatarProblem({ type: 'image/svg+xml', size: 10 })).toBe(
      'Please select a valid image file',
    );
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new TextEncoder().encode('RIFF....WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(new TextEncoder().encode('<svg>'))).toBeNull();
  });
});
