import { useQuery } from '@tanstack/react-query';
import type { ReactElement, SVGProps } from 'react';
import { useTRPC } from '#app/trpc-client.ts';
import type { SocialLink, SocialNetwork } from '#core/social.ts';
import type { ShownStoreDetails } from '#core/store-details.ts';
import { type SupportLinks, supportLinks } from './shop-contact';

/** Simple original glyphs for the social networks (lucide no longer ships brand marks). */
type IconProps = SVGProps<SVGSVGElement>;

const base = {
  viewBox: '0 0 24 24',
  width: 18,
  height: 18,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.6,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  focusable: false,
} as const;

export function InstagramIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} {...props}>
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.4" cy="6.6" r="0.6" fill="currentColor" />
    </svg>
  );
}

export function FacebookIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} {...props}>
      <path d="M14.5 8H16V4.5h-2.2C11.6 4.5 10 6.1 10 8.4V11H8v3.4h2V20h3.5v-5.6h2.2L16 11h-2.5V9c0-.6.4-1 1-1Z" />
    </svg>
  );
}

export function XIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} {...props}>
      <path d="M4.5 4h4.2l10.8 16h-4.2z" />
      <path d="M19.2 4 13.2 10.8M10.8 13.2 4.8 20" />
    </svg>
  );
}

export function TikTokIcon(props: IconProps) {
  return (
    <svg aria-hidden="true" {...base} {...props}>
      <path d="M14 4v10.5a3.5 3.5 0 1 1-3.5-3.5" />
      <path d="M14 4c.4 2.6 2.2 4.3 5 4.5" />
    </svg>
  );
}

/** The icon drawn for each network the shop may link to (core/social.ts). */
export const SOCIAL_ICONS: Record<SocialNetwork, (props: IconProps) => ReactElement> = {
  Instagram: InstagramIcon,
  Facebook: FacebookIcon,
  X: XIcon,
  TikTok: TikTokIcon,
};

/** contact.channels as the root's loader read it (the shop's WhatsApp, issue 37, is its
 * `whatsapp`: null where the shop has no WhatsApp or no number, and then nothing of it shows). */
export function useChannels() {
  const trpc = useTRPC();
  return useQuery(trpc.contact.channels.queryOptions(undefined, { staleTime: Infinity })).data;
}

/** The shop's social pages (the desk's, else SOCIAL_LINKS); none set, none shown. */
export function useSocialLinks(): readonly SocialLink[] {
  return useChannels()?.social ?? [];
}

/** The support phone and email the owner set on the desk (else the configuration's). */
export function useSupportLinks(): SupportLinks {
  return supportLinks(useChannels()?.support);
}

/** The shop's own details as shown (the owner's on the desk, else today's shop), written on the
 * server; null only when the channels could not be read (then the pages leave them out). */
export function useStoreDetails(): ShownStoreDetails | null {
  return useChannels()?.store ?? null;
}

/** The configured social pages as links opening in a new tab: the icon alone (its name for screen
 * readers), or the icon and the network's name. */
export function SocialLinkList({
  links,
  named = false,
  linkClassName,
}: {
  links: readonly SocialLink[];
  named?: boolean;
  linkClassName: string;
}) {
  return (
    <ul className="mt-4 flex flex-wrap gap-3">
      {links.map(({ network, url }) => {
        const Icon = SOCIAL_ICONS[network];
        return (
          <li key={url}>
            <a href={url} target="_blank" rel="noopener noreferrer" className={linkClassName}>
              <Icon />
              {named && network}
              <span className="sr-only">
                {named ? ' (opens in a new tab)' : `duuka on ${network} (opens in a new tab)`}
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
