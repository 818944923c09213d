import { describe, expect, it } from 'vitest';
import { lessDataAsked } from './less-data.ts';

const asked = (headers: Record<string, string>) => lessDataAsked(new Headers(headers));

describe('what a request asks for', () => {
  it('the browser’s Save-Data: on, in any case', () => {
    expect(asked({ 'save-data': 'on' })).toBe('save-data');
    expect(asked({ 'Save-Data': 'On' })).toBe('save-data');
    expect(asked({ 'save-data': 'on; x=1' })).toBe('save-data');
    expect(asked({ 'save-data': 'on', cookie: 'lessData=1' })).toBe('save-data');
  });

  it('the shopper’s setting, from its cookie among others', () => {
    expect(asked({ cookie: 'lessData=1' })).toBe('setting');
    expect(asked({ cookie: 'duuka.session_token=abc; lessData=1' })).toBe('setting');
    expect(asked({ cookie: 'lessData=1; other=2' })).toBe('setting');
  });

  it('nothing otherwise', () => {
    expect(asked({})).toBeNull();
    expect(asked({ 'save-data': 'off' })).toBeNull();
    expect(asked({ 'save-data': 'only' })).toBeNull();
    expect(asked({ cookie: 'lessData=0' })).toBeNull();
    expect(asked({ cookie: 'notlessData=1' })).toBeNull();
    expect(asked({ cookie: 'lessData=10' })).toBeNull();
  });
});
