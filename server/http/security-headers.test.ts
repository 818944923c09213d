import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COMMON_HEADERS,
  HSTS,
  newNonce,
  pagePolicy,
  RESOURCE_POLICY,
  SERVICE_WORKER_POLICY,
  withSecurityHeaders,
} from './security-headers.ts';

const page = () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } });
const json = () => Response.json({ ok: true });
const secure = (response: Response, https = true, dev = false) =>
  withSecurityHeaders(response, { nonce: 'abc123', https, dev });

describe('withSecurityHeaders', () => {
  it('gives a page the nonce policy and the common headers', () => {
    const headers = secure(page()).headers;
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    for (const directive of [
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-eval');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=()');
    expect(headers.get('strict-transport-security')).toBe(HSTS);
  });

  it('locks down everything that is not a page, and keeps a policy the route set', () => {
    expect(secure(json()).headers.get('content-security-policy')).toBe(RESOURCE_POLICY);
    const own = new Response('x', { headers: { 'content-security-policy': 'sandbox' } });
    expect(secure(own).headers.get('content-security-policy')).toBe('sandbox');
  });

  it('sends HSTS only over https, and no CSP under the dev server', () => {
    expect(secure(page(), false).headers.has('strict-transport-security')).toBe(false);
    const dev = secure(page(), false, true).headers;
    expect(dev.has('content-security-policy')).toBe(false);
    expect(dev.get('x-content-type-options')).toBe('nosniff');
  });

  it('works on responses whose headers are immutable', async () => {
    const redirect = secure(Response.redirect('https://shop.test/login', 302));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://shop.test/login');
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps status and body', async () => {
    const response = secure(new Response('gone', { status: 404 }));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('gone');
  });
});

describe('newNonce', () => {
  it('is fresh each time and safe inside a CSP source', () => {
    const a = newNonce();
    expect(a).not.toBe(newNonce());
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(pagePolicy(a)).toContain(`'nonce-${a}'`);
  });
});

describe('public/_headers (static files, served before the Worker)', () => {
  // Each rule: its path, then its headers ("! Name" drops one a rule above set).
  const text = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8');
  const rules = new Map<string, Record<string, string>>();
  let headers: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('/')) {
      headers = {};
      rules.set(line, headers);
    } else if (line.startsWith('!')) {
      headers[`!${line.slice(1).trim().toLowerCase()}`] = '';
    } else {
      const [name = '', ...value] = line.split(': ');
      headers[name.toLowerCase()] = value.join(': ');
    }
  }

  it('carries the same headers as the Worker sets on non-page responses', () => {
    expect([...rules.keys()][0]).toBe('/*');
    expect(rules.get('/*')).toEqual({
      ...COMMON_HEADERS,
      'content-security-policy': RESOURCE_POLICY,
    });
  });

  it('keeps the build’s files a year, and pictures a week', () => {
    expect(rules.get('/assets/*')).toEqual({
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(rules.get('/images/*')).toEqual({ 'cache-control': 'public, max-age=604800' });
  });

  it('gives the service worker the whole shop as its scope, and its own policy', () => {
    expect(rules.get('/assets/service-worker-*')).toEqual({
      'service-worker-allowed': '/',
      '!content-security-policy': '',
      'content-security-policy': SERVICE_WORKER_POLICY,
    });
  });
});
