// The home page's structured data (issue 34): the boutique as a schema.org ClothingStore (a
// LocalBusiness) with its address, its pin when the owner set one, its phone, email, social
// pages and its hours per day. Rendered in the home's body from the channels the root's loader
// read (no trip more); its code stays in the home's own chunk, not every page's.
import { useSocialLinks, useStoreDetails, useSupportLinks } from '#app/components/SocialIcons.tsx';
import { absoluteUrl, DEFAULT_OG_IMAGE, type JsonLd, jsonLdScript, siteOrigin } from '#app/seo.ts';
import { localBusinessJsonLd } from '#core/store-json-ld.ts';

/** The script, escaped for an inline <script> (jsonLdScript). */
export function StoreJsonLd() {
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
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON escaped by jsonLdScript (<, >, &).
  return <script type={script.type} dangerouslySetInnerHTML={{ __html: script.children }} />;
}
