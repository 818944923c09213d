// The home page's structured data (issue 34): the boutique as a schema.org ClothingStore (a
// LocalBusiness) with its address, its pin when the owner set one, its phone, email, social
// pages and its hours per day. Rendered in the home's body from the channels the root's loader
// read (no trip more); its code stays in the home's own chunk, not every page's.
import { useRouter } from '@tanstack/react-router';
import { useSocialLinks, useStoreDetails, useSupportLinks } from '#app/components/SocialIcons.tsx';
import { absoluteUrl, DEFAULT_OG_IMAGE, type JsonLd, jsonLdScript, siteOrigin } from '#app/seo.ts';
import { localBusinessJsonLd } from '#core/store-json-ld.ts';

/** The script, escaped for an inline <script> (jsonLdScript). */
export function StoreJsonLd() {
  const nonce = useRouter().options.ssr?.nonce;
  const store = useStoreDetails();
  const support = useSupportLinks();
  const social = useSocialLinks();
  if (!store) return null;
  const script = jsonLdScript(
    localBusinessJsonLd(store, {
      phone: support.phone,
      email: support.email,
      social,
      url: absoluteUrl('/', siteOrigin()),
      image: absoluteUrl(DEFAULT_OG_IMAGE.url, siteOrigin()),
    }) as JsonLd,
  );
  // Every script of a page carries its nonce (decision 0038), this one too though a browser does
  // not run JSON; the browser hides a nonce once read, so the attribute is not compared.
  return (
    <script
      type={script.type}
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON escaped by jsonLdScript (<, >, &).
      dangerouslySetInnerHTML={{ __html: script.children }}
    />
  );
}
