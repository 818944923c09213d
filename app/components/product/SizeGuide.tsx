import { Ruler } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { hasSizeGuide, SIZE_GUIDE_TEXT } from '#core/size-guide.ts';
import type { Kind } from '#core/variants.ts';

// The table's dialog loads when first opened.
const SizeGuideDialog = lazy(() => import('./SizeGuideDialog'));

/** "Size guide": a button opening a dialog with the table for the piece's kind and sizes (none for
 * one-size pieces). */
export function SizeGuide({
  kind,
  sizes,
  name,
}: {
  kind: Kind;
  sizes: readonly string[];
  /** The piece's name, above the guide's title. */
  name: string;
}) {
  const [open, setOpen] = useState(false);
  if (!hasSizeGuide(kind, sizes)) return null;
  return (
    <>
      <button
        type="button"
        className="inline-flex items-center gap-1.5 text-xs font-semibold underline underline-offset-4 hover:text-accent"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        <Ruler size={14} aria-hidden />
        {SIZE_GUIDE_TEXT.open}
      </button>
      {open && (
        <Suspense fallback={null}>
          <SizeGuideDialog kind={kind} sizes={sizes} name={name} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
