// Stock at the desk (/desk/stock, issue 22): what is running low (with the owner's
// threshold), a search for a piece or SKU, an Adjust control per variant, and the log of every
// change. `?variant=ID` shows one variant and its own log (the product editor links there).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Minus, Plus } from 'lucide-react';
import { useDeferredValue, useId, useRef, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { ModalDialog } from '#app/components/ModalDialog.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { ADJUST_REASONS, type AdjustReason } from '#core/desk-roles.ts';
import {
  adjustReasonWords,
  MAX_COUNT,
  pieceName,
  STOCK_REASON_WORDS,
  STOCK_TEXT,
  signedChange,
  stockWho,
} from '#core/desk-stock.ts';
import { formatOrderDate, formatTime } from '#core/order-rules.ts';

type StockSearch = { variant?: number };

export const Route = createFileRoute('/desk/stock')({
  // A broken ?variant= is no selection, never an error page.
  validateSearch: (search: Record<string, unknown>): StockSearch => {
    const variant = Number(search.variant);
    return Number.isInteger(variant) && variant > 0 && variant < 2 ** 31 ? { variant } : {};
  },
  head: privatePageHead('Stock · Desk'),
  component: StockPage,
});

/** A variant as the page lists it: low stock, a search's result, the chosen one. */
type Piece = { variantId: number; name: string; label: string; sku: string; stock: number };
type LogRow = ApiOutput['desk']['stockLog']['rows'][number];

function StockPage() {
  const { variant } = Route.useSearch();
  return (
    <DeskPage title="Stock">
      {variant ? (
        <OneVariant variantId={variant} />
      ) : (
        // Columns of minmax(0, …): a long name or SKU is cut, never widens the page (it made
        // the page 411 px wide at 360, issue 34).
        <div className="mt-8 grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
          <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-10">
            <LowStock />
            <FindPiece />
          </div>
          <StockLog />
        </div>
      )}
    </DeskPage>
  );
}

/** Low stock rows shown before "Show all": the search stays within a thumb's reach. */
const LOW_SHOWN = 8;

function LowStock() {
  const trpc = useTRPC();
  const low = useQuery(trpc.desk.lowStock.queryOptions());
  const [all, setAll] = useState(false);
  return (
    <section aria-labelledby="low-stock">
      <h2 id="low-stock" className="font-display text-3xl">
        Low stock
      </h2>
      {low.data && (
        <p className="mt-1 text-sm text-ink-soft">
          Pieces with {low.data.threshold} or fewer left, the emptiest first.
        </p>
      )}
      {low.isError && (
        <div className="mt-4">
          <Notice tone="error">{errorMessage(low.error, 'Low stock could not be loaded.')}</Notice>
        </div>
      )}
      {low.data && (
        <>
          <PieceList
            label="Low stock"
            pieces={all ? low.data.rows : low.data.rows.slice(0, LOW_SHOWN)}
            empty="Nothing is running low."
          />
          {!all && low.data.rows.length > LOW_SHOWN && (
            <button
              type="button"
              className="btn btn-outline mt-3 min-h-11 w-full sm:w-auto"
              onClick={() => setAll(true)}
            >
              Show all {low.data.rows.length}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function FindPiece() {
  const trpc = useTRPC();
  const inputId = useId();
  const [q, setQ] = useState('');
  const term = useDeferredValue(q.trim());
  const found = useQuery({
    ...trpc.desk.stockSearch.queryOptions({ q: term }),
    enabled: term.length > 0,
  });
  return (
    <section aria-labelledby="find-piece">
      <h2 id="find-piece" className="font-display text-3xl">
        Find a piece
      </h2>
      <label
        htmlFor={inputId}
        className="mt-4 block text-xs font-semibold uppercase tracking-[0.16em]"
      >
        Piece or SKU
      </label>
      <input
        id={inputId}
        type="search"
        value={q}
        maxLength={100}
        onChange={(event) => setQ(event.target.value)}
        placeholder="Ankara, DK-0042…"
        className="mt-2 block min-h-12 w-full border border-line bg-paper px-4 text-base text-ink placeholder:text-ink-soft/70 focus:border-ink focus:outline-none"
      />
      {found.isError && (
        <div className="mt-4">
          <Notice tone="error">{errorMessage(found.error, 'The search failed.')}</Notice>
        </div>
      )}
      {term && found.data && (
        <PieceList label="Pieces found" pieces={found.data} empty={`Nothing matches “${term}”.`} />
      )}
    </section>
  );
}

function PieceList({ label, pieces, empty }: { label: string; pieces: Piece[]; empty: string }) {
  return (
    <ul aria-label={label} className="mt-4 divide-y divide-line border-y border-line">
      {pieces.map((piece) => (
        <PieceRow key={piece.variantId} piece={piece} />
      ))}
      {pieces.length === 0 && <li className="py-5 text-sm text-ink-soft">{empty}</li>}
    </ul>
  );
}

function PieceRow({ piece }: { piece: Piece }) {
  const named = pieceName(piece.name, piece.label);
  return (
    <li className="flex items-center gap-3 py-3">
      <div className="min-w-0 flex-1">
        <Link
          to="/desk/stock"
          search={{ variant: piece.variantId }}
          className="block truncate font-medium underline-offset-4 hover:underline"
        >
          {named}
        </Link>
        <p className="truncate text-xs text-ink-soft">{piece.sku}</p>
      </div>
      <p className="shrink-0 text-right">
        <span
          className={`text-xl font-medium lining-nums tabular-nums ${piece.stock === 0 ? 'text-danger' : ''}`}
        >
          {piece.stock}
        </span>
        <span className="sr-only"> left</span>
      </p>
      <Adjust piece={piece} />
    </li>
  );
}

/** The Adjust button and its small form (a dialog): a change, a reason, one keyed save. */
function Adjust({ piece, wide = false }: { piece: Piece; wide?: boolean }) {
  const [open, setOpen] = useState(false);
  const named = pieceName(piece.name, piece.label);
  return (
    <>
      <button
        type="button"
        aria-label={`Adjust stock for ${named}`}
        className={`btn btn-outline shrink-0 ${wide ? 'min-h-12' : 'min-h-11 px-4'}`}
        onClick={() => setOpen(true)}
      >
        Adjust
      </button>
      {open && <AdjustForm piece={piece} onClose={() => setOpen(false)} />}
    </>
  );
}

function AdjustForm({ piece, onClose }: { piece: Piece; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const titleId = useId();
  const changeId = useId();
  const reasonId = useId();
  // Made when the form opens and kept for retries: a save sent twice is saved once.
  const [requestKey] = useState(() => crypto.randomUUID());
  const [change, setChange] = useState('1');
  // A count starts at the level the desk knows: the owner steps it to what the shelf holds.
  const [shelf, setShelf] = useState(String(piece.stock));
  const [reason, setReason] = useState<AdjustReason>('received');
  const counting = reason === 'counted';
  const [problem, setProblem] = useState<string | null>(null);
  const closeRef = useRef<() => void>(null);
  const save = useMutation(
    trpc.desk.adjustStock.mutationOptions({
      onSuccess: async ({ stock }) => {
        toast.success(STOCK_TEXT.saved(stock));
        // Closed as Cancel closes it, so focus goes back to the Adjust button.
        closeRef.current?.();
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
      },
      onError: (error) => setProblem(errorMessage(error, 'The change could not be saved.')),
    }),
  );
  const delta = Number(change);
  const count = Number(shelf);
  const countValid =
    shelf.trim() !== '' && Number.isInteger(count) && count >= 0 && count <= MAX_COUNT;
  const step = (by: number) => {
    if (counting) {
      setShelf(String(Math.max(0, (Number.isInteger(count) ? count : piece.stock) + by)));
    } else {
      setChange(String((Number.isInteger(delta) ? delta : 0) + by));
    }
    setProblem(null);
  };
  const named = pieceName(piece.name, piece.label);
  return (
    <ModalDialog
      aria-labelledby={titleId}
      className="m-auto w-[min(26rem,calc(100vw-2rem))] border border-line backdrop:bg-ink/40"
      onClose={onClose}
    >
      {(close) => {
        closeRef.current = close;
        return (
          <form
            className="grid gap-5 p-5 sm:p-6"
            onSubmit={(event) => {
              event.preventDefault();
              if (counting) {
                if (!countValid) {
                  setProblem(STOCK_TEXT.badCount);
                  return;
                }
                setProblem(null);
                save.mutate({ variantId: piece.variantId, reason: 'counted', count, requestKey });
                return;
              }
              if (!Number.isInteger(delta) || change.trim() === '') {
                setProblem(STOCK_TEXT.badDelta);
                return;
              }
              if (delta === 0) {
                setProblem(STOCK_TEXT.zeroDelta);
                return;
              }
              setProblem(null);
              save.mutate({ variantId: piece.variantId, delta, reason, requestKey });
            }}
          >
            <div>
              <p className="eyebrow">Adjust stock</p>
              <h2 id={titleId} className="mt-1 font-display text-2xl leading-tight">
                {named}
              </h2>
              <p className="mt-1 break-words text-sm text-ink-soft">
                <span className="lining-nums tabular-nums">{piece.stock}</span> in stock now ·{' '}
                {piece.sku}
              </p>
            </div>
            <div>
              <label
                htmlFor={reasonId}
                className="text-xs font-semibold uppercase tracking-[0.16em]"
              >
                Reason
              </label>
              <select
                id={reasonId}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value as AdjustReason);
                  setProblem(null);
                }}
                className="mt-2 block min-h-12 w-full border border-line bg-paper px-3 text-base text-ink focus:border-ink focus:outline-none"
              >
                {ADJUST_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {adjustReasonWords(r)}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label
                htmlFor={changeId}
                className="text-xs font-semibold uppercase tracking-[0.16em]"
              >
                {counting ? STOCK_TEXT.countQuestion : 'Change'}
              </label>
              <div className="mt-2 grid grid-cols-[3.5rem_1fr_3.5rem] gap-2">
                <button
                  type="button"
                  aria-label="One less"
                  className="btn btn-outline min-h-14 px-0"
                  onClick={() => step(-1)}
                >
                  <Minus size={22} aria-hidden />
                </button>
                <input
                  id={changeId}
                  type="number"
                  inputMode="numeric"
                  step={1}
                  min={counting ? 0 : undefined}
                  max={counting ? MAX_COUNT : undefined}
                  value={counting ? shelf : change}
                  onChange={(event) => {
                    (counting ? setShelf : setChange)(event.target.value);
                    setProblem(null);
                  }}
                  className="min-h-14 w-full border border-line bg-paper px-3 text-center font-display text-3xl lining-nums tabular-nums text-ink focus:border-ink focus:outline-none"
                />
                <button
                  type="button"
                  aria-label="One more"
                  className="btn btn-outline min-h-14 px-0"
                  onClick={() => step(1)}
                >
                  <Plus size={22} aria-hidden />
                </button>
              </div>
              <p
                className="mt-1.5 text-xs text-ink-soft"
                aria-live="polite"
                data-testid="adjust-hint"
              >
                {counting
                  ? countValid
                    ? STOCK_TEXT.countDifference(count, piece.stock)
                    : STOCK_TEXT.badCount
                  : 'Negative takes pieces away.'}
              </p>
            </div>
            {problem && <Notice tone="error">{problem}</Notice>}
            <div className="grid grid-cols-2 gap-2">
              <button type="button" className="btn btn-outline min-h-12" onClick={close}>
                Cancel
              </button>
              <SaveButton pending={save.isPending}>Save change</SaveButton>
            </div>
          </form>
        );
      }}
    </ModalDialog>
  );
}

/** One variant: its level now, its Adjust control, and its own log. */
function OneVariant({ variantId }: { variantId: number }) {
  const trpc = useTRPC();
  const first = useQuery(trpc.desk.stockLog.queryOptions({ variantId }));
  const piece = first.data?.variant;
  return (
    <div className="mt-8 grid gap-10">
      <p>
        <Link
          to="/desk/stock"
          className="text-sm font-medium text-ink-soft underline underline-offset-4 hover:text-ink"
        >
          ← All stock
        </Link>
      </p>
      {first.isError && (
        <Notice tone="error">{errorMessage(first.error, 'This piece could not be loaded.')}</Notice>
      )}
      {first.data && !piece && <Notice tone="info">This piece no longer exists.</Notice>}
      {piece && (
        <section
          aria-label={pieceName(piece.name, piece.label)}
          className="flex flex-wrap items-end justify-between gap-4 border border-line bg-paper p-5"
        >
          <div className="min-w-0">
            <h2 className="font-display text-3xl leading-tight">
              {pieceName(piece.name, piece.label)}
            </h2>
            <p className="mt-1 break-all text-sm text-ink-soft">
              {piece.sku}
              {piece.status !== 'published' ? ` · ${piece.status}` : ''}
            </p>
          </div>
          <div className="flex items-end gap-4">
            <p>
              <span className="block text-xs uppercase tracking-[0.14em] text-ink-soft">
                In stock
              </span>
              <span
                className={`font-display text-5xl lining-nums tabular-nums ${piece.stock === 0 ? 'text-danger' : ''}`}
              >
                {piece.stock}
              </span>
            </p>
            <Adjust piece={piece} wide />
          </div>
        </section>
      )}
      <StockLog variantId={variantId} />
    </div>
  );
}

/** The log, newest first, a page at a time ("Older changes" reads the next). */
function StockLog({ variantId }: { variantId?: number }) {
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  return (
    <section aria-labelledby="stock-log">
      <h2 id="stock-log" className="font-display text-3xl">
        Stock log
      </h2>
      <p className="mt-1 text-sm text-ink-soft">Every change, newest first.</p>
      <ol aria-label="Stock log" className="mt-4 divide-y divide-line border-y border-line">
        {pages.map((before, i) => (
          <LogPage
            key={before ?? 'first'}
            variantId={variantId}
            before={before}
            onOlder={
              i === pages.length - 1 ? (next) => setPages((all) => [...all, next]) : undefined
            }
          />
        ))}
      </ol>
    </section>
  );
}

function LogPage({
  variantId,
  before,
  onOlder,
}: {
  variantId?: number;
  before?: number;
  onOlder?: (next: number) => void;
}) {
  const trpc = useTRPC();
  const page = useQuery(
    trpc.desk.stockLog.queryOptions({
      ...(variantId ? { variantId } : {}),
      ...(before ? { before } : {}),
    }),
  );
  if (page.isError) {
    return (
      <li className="py-4">
        <Notice tone="error">{errorMessage(page.error, 'The log could not be loaded.')}</Notice>
      </li>
    );
  }
  if (!page.data) return <li className="py-5 text-sm text-ink-soft">Loading the log…</li>;
  const { rows, next } = page.data;
  return (
    <>
      {rows.map((row) => (
        <LogRowItem key={row.id} row={row} showPiece={!variantId} />
      ))}
      {rows.length === 0 && !before && (
        <li className="py-5 text-sm text-ink-soft">No changes yet.</li>
      )}
      {next && onOlder && (
        <li className="py-3">
          <button
            type="button"
            className="btn btn-outline min-h-11 w-full sm:w-auto"
            onClick={() => onOlder(next)}
          >
            Older changes
          </button>
        </li>
      )}
    </>
  );
}

function LogRowItem({ row, showPiece }: { row: LogRow; showPiece: boolean }) {
  const tone = row.change > 0 ? 'text-success' : row.change < 0 ? 'text-danger' : 'text-ink-soft';
  const piece = row.name ? pieceName(row.name, row.label ?? '') : row.sku;
  return (
    <li className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 py-3" data-reason={row.reason}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-xs font-semibold uppercase tracking-[0.14em]">
            {STOCK_REASON_WORDS[row.reason]}
          </span>
          {showPiece &&
            (row.variantId ? (
              <Link
                to="/desk/stock"
                search={{ variant: row.variantId }}
                className="truncate text-sm underline-offset-4 hover:underline"
              >
                {piece}
              </Link>
            ) : (
              <span className="truncate text-sm">{piece}</span>
            ))}
        </p>
        <p className="mt-0.5 break-words text-xs text-ink-soft">
          {stockWho(row)} · {formatOrderDate(row.createdAt)} {formatTime(row.createdAt)}
        </p>
      </div>
      <p className="text-right lining-nums tabular-nums">
        <span className={`block text-lg font-medium ${tone}`}>
          <span className="sr-only">Change </span>
          {signedChange(row.change)}
        </span>
        <span className="block text-xs text-ink-soft">{row.stockAfter} after</span>
      </p>
    </li>
  );
}
