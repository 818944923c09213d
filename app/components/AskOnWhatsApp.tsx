import { askOnWhatsAppLink } from '#core/whatsapp-link.ts';
import { useChannels } from './SocialIcons';

/**
 * "Ask on WhatsApp" (issue 37): the shop's chat in a new tab, her question already written.
 * Nothing where the shop has no WhatsApp or no number (contact.channels' whatsapp).
 */
export function AskOnWhatsApp({ text, className = '' }: { text: string; className?: string }) {
  const whatsapp = useChannels()?.whatsapp;
  if (!whatsapp) return null;
  return (
    <a
      href={askOnWhatsAppLink(whatsapp.number, text)}
      target="_blank"
      rel="noopener"
      aria-description="Opens WhatsApp in a new tab"
      className={`btn btn-outline btn-chat ${className}`}
    >
      Ask on WhatsApp
    </a>
  );
}
