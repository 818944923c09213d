import { TRPCClientError } from '@trpc/client';

/** The shop's own contact details, shown in the footer and on the Contact page. */
export const SHOP_CONTACT = {
  city: 'Kampala, Uganda',
  phone: '+256 759 301 488',
  phoneHref: 'tel:+256759301488',
  whatsappHref: 'https://wa.me/256759301488',
  email: 'hello@duuka.ug',
  emailHref: 'mailto:hello@duuka.ug',
  hours: [
    { days: 'Mon–Sat', time: '8AM–8PM' },
    { days: 'Sun', time: '10AM–6PM' },
  ],
} as const;

/** What a shopper may read from a failed call: the server's message, or the spec's generic text. */
export function shopperMessage(error: unknown): string {
  if (error instanceof TRPCClientError && error.shape) return error.message;
  return 'An unexpected error occurred.';
}
