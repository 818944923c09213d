// An order's pieces on the desk, each with its size and colour, so the order can be
// picked from the desk: "2 × Ankara Wrap Dress  M · Indigo".
import type { ApiOutput } from '#app/trpc-client.ts';

type Piece = ApiOutput['desk']['orders']['orders'][number]['pieces'][number];

/** Lines shown before the rest are counted. */
const SHOWN = 6;

export function OrderPieces({ pieces }: { pieces: Piece[] }) {
  if (pieces.length === 0) return null;
  const rest = pieces.length - SHOWN;
  return (
    <ul className="mt-2 space-y-0.5 text-sm" aria-label="Pieces">
      {pieces.slice(0, SHOWN).map((piece, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines have no id here and never reorder
        <li key={index} className="flex flex-wrap items-baseline gap-x-2">
          <span className="tabular-nums text-ink-soft">{piece.quantity} ×</span>
          <span className="font-medium">{piece.name}</span>
          {piece.variant && (
            <span className="text-ink-soft" data-testid="variant-label">
              {piece.variant}
            </span>
          )}
        </li>
      ))}
      {rest > 0 && <li className="text-ink-soft">and {rest} more</li>}
    </ul>
  );
}
