// The shop's social channels, as the desk sets them in SOCIAL_LINKS (server/env.ts): only
// networks the shop draws an icon for, only https pages. None set: the shop shows none.

export const SOCIAL_NETWORKS = [
  { name: 'Instagram', hosts: ['instagram.com'] },
  { name: 'Facebook', hosts: ['facebook.com'] },
  { name: 'X', hosts: ['x.com', 'twitter.com'] },
  { name: 'TikTok', hosts: ['tiktok.com'] },
] as const;

export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]['name'];
export type SocialLink = { network: SocialNetwork; url: string };

/** The link an address names (https://www.instagram.com/duuka.ug → Instagram), or null. */
export function socialLinkOf(address: string): SocialLink | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.pathname === '/') {
    return null;
  }
  const host = url.hostname.replace(/^www\./, '');
  const network = SOCIAL_NETWORKS.find((n) => (n.hosts as readonly string[]).includes(host));
  return network ? { network: network.name, url: url.href } : null;
}
