import { X } from 'lucide-react';
import { ModalDialog } from '#app/components/ModalDialog.tsx';
import { ProductImage } from '#app/components/ProductImage.tsx';
import type { ProductImage as Picture } from '#core/catalogue.ts';
import { PictureArrows } from './PictureArrows';

/** The full-screen view: the picture as large as the screen allows. */
export default function ZoomView({
  pictures,
  index,
  name,
  onShow,
  onClose,
}: {
  pictures: readonly Picture[];
  index: number;
  name: string;
  onShow: (index: number) => void;
  onClose: () => void;
}) {
  const picture = pictures[index] ?? pictures[0];
  const count = pictures.length;
  if (!picture) return null;
  return (
    <ModalDialog
      aria-label={`${name}: picture ${index + 1} of ${count}`}
      onClose={onClose}
      onKeyDown={(event) => {
        if (count > 1 && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')) {
          event.preventDefault();
          onShow(index + (event.key === 'ArrowRight' ? 1 : -1));
        }
      }}
      className="zoom-view m-0 size-full max-h-none max-w-none backdrop:bg-black/80"
      data-testid="zoom-view"
    >
      {(close) => (
        <>
          <button
            type="button"
            onClick={close}
            className="gallery-control fixed top-3 right-3 z-10"
            aria-label="Close"
          >
            <X size={20} aria-hidden />
          </button>
          <figure className="grid h-full place-items-center overflow-auto">
            {/* As large as the screen allows, whole (4:5): the full width of a phone, the full
            height of a wide screen. */}
            <div className="relative aspect-[4/5]" style={{ width: 'min(100vw, 80dvh)' }}>
              <ProductImage
                key={picture.url}
                src={picture.url}
                widths={picture.widths}
                sizes="(min-aspect-ratio: 4/5) 80vh, 100vw"
                alt={picture.alt}
                eager
                fill
              />
            </div>
            <figcaption className="sr-only">{picture.alt}</figcaption>
          </figure>
          {count > 1 && (
            <>
              <PictureArrows at={index} onShow={onShow} place="fixed" />
              <p className="fixed bottom-4 left-1/2 -translate-x-1/2 bg-paper/90 px-3 py-1 text-xs font-semibold tabular-nums">
                {index + 1} / {count}
              </p>
            </>
          )}
        </>
      )}
    </ModalDialog>
  );
}
