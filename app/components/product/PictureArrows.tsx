import { ChevronLeft, ChevronRight } from 'lucide-react';

/** Previous and next picture, at the left and right edges of what `place` positions them in. */
export function PictureArrows({
  at,
  onShow,
  place,
}: {
  at: number;
  onShow: (index: number) => void;
  /** Positioning classes for both buttons (absolute in the gallery, fixed in the full view). */
  place: string;
}) {
  return (
    <>
      <button
        type="button"
        className={`gallery-control top-1/2 left-3 -translate-y-1/2 ${place}`}
        onClick={() => onShow(at - 1)}
        aria-label="Previous picture"
      >
        <ChevronLeft size={20} aria-hidden />
      </button>
      <button
        type="button"
        className={`gallery-control top-1/2 right-3 -translate-y-1/2 ${place}`}
        onClick={() => onShow(at + 1)}
        aria-label="Next picture"
      >
        <ChevronRight size={20} aria-hidden />
      </button>
    </>
  );
}
