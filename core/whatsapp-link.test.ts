import { describe, expect, it } from 'vitest';
import { receiptNumber } from './order-rules.ts';
import { askOnWhatsAppLink, orderQuestion, productQuestion } from './whatsapp-link.ts';

const LINK = 'https://duuka.ug/products/kitenge-wrap';

describe('the wa.me link', () => {
  it('takes the number’s digits only (no +, spaces or dashes) and the text encoded', () => {
    expect(askOnWhatsAppLink('+256 772-123 456', 'Hello duuka')).toBe(
      'https://wa.me/256772123456?text=Hello%20duuka',
    );
  });

  it('encodes what would break the link: &, ?, #, +, /, line breaks, quotes and non-ASCII', () => {
    const text = 'Size & fit? #1 + 2/3\n“Mukwano” café';
    const link = askOnWhatsAppLink('+256772123456', text);
    const url = new URL(link);
    expect(url.origin).toBe('https://wa.me');
    expect(url.pathname).toBe('/256772123456');
    expect([...url.searchParams.keys()]).toEqual(['text']);
    expect(url.searchParams.get('text')).toBe(text);
    // Nothing raw after "?text=": a space, #, &, +, / or ? there would cut or change the text.
    expect(link.split('?text=')[1]).not.toMatch(/[\s#&+/?“”é]/u);
    expect(link).toContain('Size%20%26%20fit%3F%20%231%20%2B%202%2F3%0A');
  });
});

describe('a question about a piece', () => {
  it('names the size and colour she chose, and the piece’s link', () => {
    expect(productQuestion({ name: 'Kitenge Wrap', size: 'M', colour: 'Indigo', link: LINK })).toBe(
      `Hello duuka, I'd like to ask about Kitenge Wrap (size M, colour Indigo): ${LINK}`,
    );
  });

  it('names only what she chose: the size alone, the colour alone, or neither', () => {
    expect(productQuestion({ name: 'Kitenge Wrap', size: '42', link: LINK })).toBe(
      `Hello duuka, I'd like to ask about Kitenge Wrap (size 42): ${LINK}`,
    );
    expect(productQuestion({ name: 'Kitenge Wrap', size: null, colour: 'Gold', link: LINK })).toBe(
      `Hello duuka, I'd like to ask about Kitenge Wrap (colour Gold): ${LINK}`,
    );
    expect(productQuestion({ name: 'Beaded Clutch', size: '', colour: '', link: LINK })).toBe(
      `Hello duuka, I'd like to ask about Beaded Clutch: ${LINK}`,
    );
  });

  it('survives the round trip through the link word for word', () => {
    const text = productQuestion({ name: 'Ankara & Silk Dress', size: 'XL', link: LINK });
    const link = askOnWhatsAppLink('+256772123456', text);
    expect(new URL(link).searchParams.get('text')).toBe(text);
  });
});

describe('a question about an order', () => {
  it('names the receipt’s reference and leaves the rest to her', () => {
    const id = '1a2b3c4d-0000-4000-8000-000000000000';
    expect(orderQuestion(receiptNumber(id))).toBe('Hello duuka, about my order RCP-1a2b3c4d: ');
    expect(askOnWhatsAppLink('+256772123456', orderQuestion('RCP-1a2b3c4d'))).toBe(
      'https://wa.me/256772123456?text=Hello%20duuka%2C%20about%20my%20order%20RCP-1a2b3c4d%3A%20',
    );
  });
});
