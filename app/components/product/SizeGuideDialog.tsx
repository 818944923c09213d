import { X } from 'lucide-react';
import { useId } from 'react';
import { ModalDialog } from '#app/components/ModalDialog.tsx';
import { sizeGuideFor } from '#core/size-guide.ts';
import type { Kind } from '#core/variants.ts';

export default function SizeGuideDialog({
  kind,
  sizes,
  name,
  onClose,
}: {
  kind: Kind;
  sizes: readonly string[];
  name: string;
  onClose: () => void;
}) {
  const guide = sizeGuideFor(kind, sizes);
  const titleId = useId();
  if (!guide) return null;
  return (
    <ModalDialog
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[90dvh] w-[min(560px,94vw)] overflow-y-auto backdrop:bg-black/60 backdrop:backdrop-blur-sm"
    >
      {(close) => (
        <>
          <div className="flex items-start justify-between gap-4 border-b border-line px-6 pt-6 pb-4">
            <div>
              <p className="eyebrow">{name}</p>
              <h2 id={titleId} className="mt-1 font-display text-3xl font-medium">
                {guide.title}
              </h2>
            </div>
            <button
              type="button"
              onClick={close}
              className="grid size-10 shrink-0 place-items-center hover:bg-paper-2"
              aria-label="Close"
            >
              <X size={20} aria-hidden />
            </button>
          </div>
          <div className="px-6 py-5">
            <table className="w-full border-collapse text-sm tabular-nums">
              <caption className="mb-3 text-left text-xs text-ink-soft">{guide.caption}</caption>
              <thead>
                <tr className="border-b border-ink">
                  {guide.columns.map((column) => (
                    <th
                      key={column}
                      scope="col"
                      className="py-2 pr-3 text-left text-xs font-semibold uppercase tracking-wider"
                    >
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {guide.rows.map(([size, ...cells]) => (
                  <tr key={size} className="border-b border-line">
                    <th scope="row" className="py-2.5 pr-3 text-left font-semibold">
                      {size}
                    </th>
                    {cells.map((cell, i) => (
                      <td key={guide.columns[i + 1]} className="py-2.5 pr-3">
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {guide.notes.map((note) => (
              <p key={note} className="mt-4 text-sm leading-relaxed text-ink-soft">
                {note}
              </p>
            ))}
          </div>
        </>
      )}
    </ModalDialog>
  );
}
