/** The shop's own contact details, shown in the footer and on the Contact page (its address and
 * hours are the owner's details: core/desk-store-details.ts). */
export const SHOP_CONTACT = {
  phone: '+256 759 301 488',
  phoneHref: 'tel:+256759301488',
  whatsappHref: 'https://wa.me/256759301488',
  email: 'hello@duuka.ug',
  emailHref: 'mailto:hello@duuka.ug',
} as const;

export type SupportLinks = {
  phone: string;
  phoneHref: string;
  whatsappHref: string;
  email: string;
  emailHref: string;
};

/**
 * The support phone and email as shown and linked ('+256 759 301 488', tel:, wa.me, mailto:):
 * the desk's settings when the server has answered, else the shop's own.
 */
export function supportLinks(support?: { phone: string; email: string } | null): SupportLinks {
  if (!support) return SHOP_CONTACT;
  const digits = support.phone.replace(/\D/g, '');
  const ugandan = digits.match(/^256(\d{3})(\d{3})(\d{3})$/);
  return {
    phone: ugandan ? `+256 ${ugandan[1]} ${ugandan[2]} ${ugandan[3]}` : support.phone,
    phoneHref: `tel:+${digits}`,
    whatsappHref: `https://wa.me/${digits}`,
    email: support.email,
    emailHref: `mailto:${support.email}`,
  };
}
