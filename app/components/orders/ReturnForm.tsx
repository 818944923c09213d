// The return form (issue 36): the pieces and how many, a reason for each, an exchange (another
// size or colour, held at once) or a refund (to the payment or to store credit), a note and up to
// three photos. The return's id is made once per form: a double tap, or a retry after a lost
// answer, sends one return (returns.request answers the first answer again).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Camera, Check, ImageOff, X } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { inputClass, Notice } from '#app/components/account/ui.tsx';
import { QuantityStepper } from '#app/components/QuantityStepper.tsx';
import { errorMessage } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { PHOTO_MAX_BYTES, PHOTO_TEXT } from '#core/desk-photos.ts';
import { formatUGX } from '#core/money.ts';
import {
  kampalaDate,
  RETURN_NOTE_MAX,
  RETURN_PHOTO_UPLOAD_PATH,
  RETURN_PHOTOS_MAX,
  RETURN_REASON_LABEL,
  RETURN_REASONS,
  RETURN_SCREEN_TEXT,
  RETURN_TEXT,
  type RefundDestination,
  type Resolution,
  type ReturnReason,
} from '#core/returns.ts';

type Options = ApiOutput['returns']['options'];
type Line = Options['lines'][number];
type Choice = Line['exchangeChoices'][number];
type Picked = { quantity: number; reason: ReturnReason | ''; exchangeVariantId?: number };
type Photo = { id: string; name: string; preview: string; key?: string; problem?: string };

const TEXT = RETURN_SCREEN_TEXT;

export function ReturnForm({
  options,
  onRefresh,
}: {
  options: Options;
  onRefresh: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = useId();
  // One return per form, whatever happens to the first answer.
  const [returnId] = useState(() => crypto.randomUUID());
  const [picked, setPicked] = useState<Record<string, Picked>>({});
  const [resolution, setResolution] = useState<Resolution>(
    options.canExchange ? 'exchange' : 'refund',
  );
  const [refundTo, setRefundTo] = useState<RefundDestination>('original');
  const [note, setNote] = useState('');
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [tried, setTried] = useState(false);
  const [problem, setProblem] = useState('');
  const problemRef = useRef<HTMLDivElement>(null);

  const request = useMutation(
    trpc.returns.request.mutationOptions({
      onSuccess: async () => {
        toast.success(RETURN_TEXT.requested);
        await Promise.all([
          queryClient.invalidateQueries({
            queryKey: trpc.orders.byId.queryKey({ id: options.orderId }),
          }),
          queryClient.invalidateQueries({ queryKey: trpc.returns.list.queryKey() }),
        ]);
        await navigate({ to: '/order-history/$orderId', params: { orderId: options.orderId } });
      },
      onError: async (error) => {
        setProblem(errorMessage(error));
        // Stock may have moved (a size sold out meanwhile): show the pieces as they are now.
        await onRefresh();
        problemRef.current?.focus();
      },
    }),
  );

  if (!options.canReturn) {
    return (
      <div className="mt-8">
        <Notice tone="info">{options.problem ?? RETURN_TEXT.notDelivered}</Notice>
      </div>
    );
  }

  const chosen = options.lines.filter((line) => picked[line.orderItemId]);
  const exchange = resolution === 'exchange';
  const missing = {
    pieces: chosen.length === 0,
    reason: chosen.some((line) => !picked[line.orderItemId]?.reason),
    exchange:
      exchange &&
      chosen.some((line) => {
        const id = picked[line.orderItemId]?.exchangeVariantId;
        return !line.exchangeChoices.some((c) => c.variantId === id && c.stock > 0);
      }),
  };
  const uploading = photos.some((photo) => !photo.key && !photo.problem);

  function toggle(line: Line, on: boolean) {
    setPicked((current) => {
      const next = { ...current };
      if (on) next[line.orderItemId] = { quantity: 1, reason: '' };
      else delete next[line.orderItemId];
      return next;
    });
  }
  function change(line: Line, changes: Partial<Picked>) {
    setPicked((current) => {
      const was = current[line.orderItemId];
      return was ? { ...current, [line.orderItemId]: { ...was, ...changes } } : current;
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    setProblem('');
    if (missing.pieces || missing.reason || missing.exchange || uploading) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    request.mutate({
      returnId,
      orderId: options.orderId,
      lines: chosen.map((line) => {
        const pick = picked[line.orderItemId] as Picked;
        return {
          orderItemId: line.orderItemId,
          quantity: pick.quantity,
          reason: pick.reason as ReturnReason,
          ...(exchange ? { exchangeVariantId: pick.exchangeVariantId } : {}),
        };
      }),
      resolution,
      ...(exchange ? {} : { refundTo }),
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(photos.some((p) => p.key) ? { photos: photos.flatMap((p) => p.key ?? []) } : {}),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-10">
      <Windows options={options} />

      <fieldset aria-describedby={tried && missing.pieces ? `${ids}-pieces` : undefined}>
        <legend className="font-display text-2xl">{TEXT.piecesLegend}</legend>
        {tried && missing.pieces && (
          <p id={`${ids}-pieces`} className="mt-2 text-sm text-danger">
            {TEXT.choosePieces}
          </p>
        )}
        <ul className="mt-4 space-y-3">
          {options.lines.map((line) => (
            <li key={line.orderItemId}>
              <PieceCard
                line={line}
                pick={picked[line.orderItemId]}
                invalid={tried && missing.pieces}
                reasonMissing={tried && !picked[line.orderItemId]?.reason}
                onToggle={(on) => toggle(line, on)}
                onChange={(changes) => change(line, changes)}
              />
            </li>
          ))}
        </ul>
      </fieldset>

      <fieldset>
        <legend className="font-display text-2xl">{TEXT.resolutionLegend}</legend>
        <div className="mt-4 grid grid-cols-2 gap-3">
          <ResolutionCard
            name={`${ids}-resolution`}
            value="exchange"
            title={TEXT.exchange}
            note={TEXT.exchangeNote}
            checked={exchange}
            disabled={!options.canExchange}
            onChoose={setResolution}
          />
          <ResolutionCard
            name={`${ids}-resolution`}
            value="refund"
            title={TEXT.refund}
            note={TEXT.refundNote}
            checked={!exchange}
            onChoose={setResolution}
          />
        </div>
        {!options.canExchange && options.problem && (
          <p className="mt-3 text-sm text-ink-soft">{options.problem}</p>
        )}

        {exchange && chosen.length > 0 && (
          <div className="mt-6 space-y-6">
            {chosen.map((line) => (
              <ExchangeChoices
                key={line.orderItemId}
                line={line}
                chosen={picked[line.orderItemId]?.exchangeVariantId}
                invalid={tried && missing.exchange}
                onChoose={(variantId) => change(line, { exchangeVariantId: variantId })}
                onRefund={() => setResolution('refund')}
              />
            ))}
          </div>
        )}

        {!exchange && (
          <fieldset className="mt-6">
            <legend className="text-xs font-semibold uppercase tracking-[0.16em]">
              {TEXT.refundToLegend}
            </legend>
            <div className="mt-3 space-y-2">
              <RefundToOption
                name={`${ids}-refund-to`}
                value="original"
                title={TEXT.toPayment}
                note={TEXT.toPaymentNote}
                checked={refundTo === 'original'}
                onChoose={setRefundTo}
              />
              <RefundToOption
                name={`${ids}-refund-to`}
                value="store_credit"
                title={TEXT.toCredit}
                note={TEXT.toCreditNote}
                checked={refundTo === 'store_credit'}
                onChoose={setRefundTo}
              />
            </div>
          </fieldset>
        )}
        {options.pickupFee > 0 && (
          <p className="mt-4 text-sm text-ink-soft">
            {TEXT.pickupFee(formatUGX(options.pickupFee))}
          </p>
        )}
      </fieldset>

      <div className="space-y-6">
        <div>
          <label
            htmlFor={`${ids}-note`}
            className="text-xs font-semibold uppercase tracking-[0.16em]"
          >
            {TEXT.noteLabel}
          </label>
          <textarea
            id={`${ids}-note`}
            value={note}
            maxLength={RETURN_NOTE_MAX}
            rows={3}
            onChange={(event) => setNote(event.target.value)}
            className={`${inputClass} resize-y`}
          />
        </div>
        <ReturnPhotos photos={photos} onPhotos={setPhotos} />
      </div>

      <div ref={problemRef} tabIndex={-1} className="outline-none">
        {problem && <Notice tone="error">{problem}</Notice>}
      </div>

      {/* Within the thumb's reach on a phone: the button stays at the bottom of the screen. */}
      <div className="sticky bottom-0 -mx-4 border-t border-line bg-paper/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
        <button
          type="submit"
          className="btn btn-primary w-full sm:w-auto"
          disabled={request.isPending || uploading}
        >
          {request.isPending ? TEXT.sending : uploading ? TEXT.uploading : TEXT.send}
        </button>
      </div>
    </form>
  );
}

/** Until when each can be asked for. */
function Windows({ options }: { options: Options }) {
  const day = (iso: string | null) => (iso ? kampalaDate(new Date(iso)) : null);
  const returns = day(options.returnLastDay);
  const exchanges = day(options.exchangeLastDay);
  if (!returns && !exchanges) return null;
  return (
    <dl className="grid grid-cols-2 gap-4 border border-line bg-paper-2/60 px-4 py-3 text-sm">
      {exchanges && (
        <div>
          <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">Exchange until</dt>
          <dd className="mt-1 font-medium">{exchanges}</dd>
        </div>
      )}
      {returns && (
        <div>
          <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">Refund until</dt>
          <dd className="mt-1 font-medium">{returns}</dd>
        </div>
      )}
    </dl>
  );
}

/** One piece of the order: chosen with its checkbox, then how many and why. */
function PieceCard({
  line,
  pick,
  invalid,
  reasonMissing,
  onToggle,
  onChange,
}: {
  line: Line;
  pick: Picked | undefined;
  invalid: boolean;
  reasonMissing: boolean;
  onToggle: (on: boolean) => void;
  onChange: (changes: Partial<Picked>) => void;
}) {
  const ids = useId();
  const why = !line.returnable ? TEXT.notReturnable : line.left < 1 ? TEXT.alreadyReturned : null;
  return (
    <div
      className={`border ${pick ? 'border-ink' : 'border-line'} ${why ? 'bg-paper-2/50' : 'bg-paper'}`}
      data-testid="return-piece"
    >
      <label
        className={`flex min-h-11 items-center gap-3 px-3 py-3 sm:px-4 ${why ? 'cursor-not-allowed' : 'cursor-pointer'}`}
      >
        <input
          type="checkbox"
          checked={Boolean(pick)}
          disabled={Boolean(why)}
          aria-invalid={invalid || undefined}
          aria-describedby={why ? `${ids}-why` : undefined}
          onChange={(event) => onToggle(event.target.checked)}
          className="size-5 shrink-0 accent-[var(--ink)]"
        />
        <span className={`size-16 shrink-0 overflow-hidden bg-paper-2 ${why ? 'opacity-50' : ''}`}>
          {line.image ? (
            <img
              src={line.image}
              alt=""
              width={64}
              height={80}
              className="size-full object-cover"
            />
          ) : (
            <ImageOff size={18} aria-hidden className="m-auto mt-5 text-ink-soft" />
          )}
        </span>
        <span className={`min-w-0 flex-1 ${why ? 'text-ink-soft' : ''}`}>
          <span className="block font-medium">{line.name}</span>
          <span className="block text-sm text-ink-soft">
            {[
              line.variantLabel,
              formatUGX(line.price),
              line.quantity > 1 ? `${line.quantity} bought` : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
          {why && (
            <span id={`${ids}-why`} className="mt-1 block text-sm">
              {why}
            </span>
          )}
        </span>
      </label>
      {pick && (
        <div className="grid gap-4 border-t border-line px-3 py-4 sm:grid-cols-[auto_1fr] sm:items-end sm:px-4">
          {line.left > 1 && (
            <div>
              <span className="block text-xs font-semibold uppercase tracking-[0.16em]">
                How many?
              </span>
              <div className="mt-2">
                <QuantityStepper
                  value={pick.quantity}
                  max={line.left}
                  onChange={(quantity) => onChange({ quantity })}
                  label={`How many of ${line.name}`}
                />
              </div>
            </div>
          )}
          <div className="min-w-0">
            <label
              htmlFor={`${ids}-reason`}
              className="text-xs font-semibold uppercase tracking-[0.16em]"
            >
              {TEXT.reasonLabel}
            </label>
            <select
              id={`${ids}-reason`}
              value={pick.reason}
              aria-invalid={reasonMissing || undefined}
              aria-describedby={reasonMissing ? `${ids}-reason-error` : undefined}
              onChange={(event) => onChange({ reason: event.target.value as ReturnReason })}
              className={`${inputClass} min-h-11 ${reasonMissing ? 'border-danger' : ''}`}
            >
              <option value="" disabled>
                {TEXT.reasonPlaceholder}
              </option>
              {RETURN_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {RETURN_REASON_LABEL[reason]}
                </option>
              ))}
            </select>
            {reasonMissing && (
              <p id={`${ids}-reason-error`} className="mt-1.5 text-sm text-danger">
                {RETURN_TEXT.badReason}
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function ResolutionCard({
  name,
  value,
  title,
  note,
  checked,
  disabled = false,
  onChoose,
}: {
  name: string;
  value: Resolution;
  title: string;
  note: string;
  checked: boolean;
  disabled?: boolean;
  onChoose: (value: Resolution) => void;
}) {
  return (
    <label
      className={`relative flex min-h-24 flex-col justify-between border px-4 py-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
        checked ? 'border-ink bg-ink text-paper' : 'border-line'
      } ${disabled ? 'cursor-not-allowed opacity-55' : 'cursor-pointer hover:border-ink'}`}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onChoose(value)}
        className="sr-only"
      />
      <span className="flex items-center justify-between gap-2 font-display text-xl">
        {title}
        {checked && <Check size={16} aria-hidden />}
      </span>
      <span className={`text-xs ${checked ? 'text-paper/80' : 'text-ink-soft'}`}>{note}</span>
    </label>
  );
}

function RefundToOption({
  name,
  value,
  title,
  note,
  checked,
  onChoose,
}: {
  name: string;
  value: RefundDestination;
  title: string;
  note: string;
  checked: boolean;
  onChoose: (value: RefundDestination) => void;
}) {
  return (
    <label
      className={`flex min-h-11 cursor-pointer items-start gap-3 border px-4 py-3 ${checked ? 'border-ink' : 'border-line hover:border-ink'}`}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChoose(value)}
        className="mt-1 size-4 shrink-0 accent-[var(--ink)]"
      />
      <span>
        <span className="block font-medium">{title}</span>
        <span className="block text-sm text-ink-soft">{note}</span>
      </span>
    </label>
  );
}

/**
 * The other sizes and colours of a piece, as the product page shows them: a sold-out one stays
 * visible, struck through. Chosen anyway (or sold out since), it says so and offers what is left
 * or a refund.
 */
function ExchangeChoices({
  line,
  chosen,
  invalid,
  onChoose,
  onRefund,
}: {
  line: Line;
  chosen: number | undefined;
  invalid: boolean;
  onChoose: (variantId: number) => void;
  onRefund: () => void;
}) {
  const ids = useId();
  const picked = line.exchangeChoices.find((choice) => choice.variantId === chosen);
  const left = line.exchangeChoices.filter((choice) => choice.stock > 0);
  const soldOut = picked && picked.stock < 1;
  const unanswered = invalid && !picked;
  return (
    <fieldset
      aria-describedby={soldOut ? `${ids}-sold-out` : unanswered ? `${ids}-missing` : undefined}
      data-testid="exchange-choices"
    >
      <legend className="text-sm">
        <span className="font-medium">{line.name}</span>
        <span className="text-ink-soft"> · {TEXT.insteadLegend(line.variantLabel)}</span>
      </legend>
      {line.exchangeChoices.length === 0 ? (
        <p className="mt-2 text-sm text-ink-soft">
          {TEXT.noChoices}{' '}
          <button type="button" className="font-semibold text-accent underline" onClick={onRefund}>
            {TEXT.refundInstead}
          </button>
        </p>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          {line.exchangeChoices.map((choice) => (
            <ChoicePill
              key={choice.variantId}
              name={`${ids}-choice`}
              choice={choice}
              linePrice={line.price}
              checked={choice.variantId === chosen}
              invalid={unanswered}
              onChoose={onChoose}
            />
          ))}
        </div>
      )}
      {unanswered && (
        <p id={`${ids}-missing`} className="mt-2 text-sm text-danger">
          {RETURN_TEXT.exchangeNeedsPiece}
        </p>
      )}
      {soldOut && (
        <div
          id={`${ids}-sold-out`}
          role="alert"
          className="mt-3 border border-gold/60 bg-gold/10 px-4 py-3 text-sm"
          data-testid="sold-out-choice"
        >
          <p>{RETURN_TEXT.soldOut(picked.label)}</p>
          {left.length > 0 && (
            <p className="mt-2 flex flex-wrap items-center gap-2">
              <span className="text-ink-soft">{TEXT.sizesLeft}</span>
              {left.map((choice) => (
                <button
                  key={choice.variantId}
                  type="button"
                  className="btn btn-outline min-h-11 px-4"
                  onClick={() => onChoose(choice.variantId)}
                >
                  {choice.label}
                </button>
              ))}
            </p>
          )}
          <button
            type="button"
            className="mt-2 inline-flex min-h-11 items-center font-semibold text-accent underline underline-offset-4"
            onClick={onRefund}
          >
            {TEXT.refundInstead}
          </button>
        </div>
      )}
    </fieldset>
  );
}

function ChoicePill({
  name,
  choice,
  linePrice,
  checked,
  invalid,
  onChoose,
}: {
  name: string;
  choice: Choice;
  linePrice: number;
  checked: boolean;
  invalid: boolean;
  onChoose: (variantId: number) => void;
}) {
  const soldOut = choice.stock < 1;
  return (
    <label className="variant-pill" data-sold-out={soldOut || undefined}>
      <input
        type="radio"
        name={name}
        value={choice.variantId}
        checked={checked}
        aria-invalid={invalid || undefined}
        onChange={() => onChoose(choice.variantId)}
        className="sr-only"
      />
      <span className="variant-pill-face">
        <span className="variant-pill-value">{choice.label}</span>
        {soldOut && <span className="text-xs">({TEXT.soldOutTag})</span>}
        {!soldOut && choice.price < linePrice && (
          <span className="text-xs opacity-80">{formatUGX(choice.price)}</span>
        )}
      </span>
    </label>
  );
}

/** Up to three photos, each sent as soon as it is chosen; its key goes with the request. */
function ReturnPhotos({
  photos,
  onPhotos,
}: {
  photos: Photo[];
  onPhotos: (update: (photos: Photo[]) => Photo[]) => void;
}) {
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  function add(files: FileList | null) {
    const room = RETURN_PHOTOS_MAX - photos.length;
    const picked = [...(files ?? [])].slice(0, Math.max(0, room));
    for (const file of picked) {
      const photo: Photo = {
        id: crypto.randomUUID(),
        name: file.name,
        preview: URL.createObjectURL(file),
      };
      onPhotos((current) => [...current, photo]);
      void sendPhoto(file).then((answer) =>
        onPhotos((current) => current.map((p) => (p.id === photo.id ? { ...p, ...answer } : p))),
      );
    }
    if (input.current) input.current.value = '';
  }
  function remove(photo: Photo) {
    URL.revokeObjectURL(photo.preview);
    onPhotos((current) => current.filter((p) => p.id !== photo.id));
  }
  return (
    <div>
      <span id={`${ids}-label`} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {TEXT.photosLabel}
      </span>
      <p id={`${ids}-note`} className="mt-1 text-sm text-ink-soft">
        {TEXT.photosNote}
      </p>
      <ul className="mt-3 flex flex-wrap gap-3" aria-labelledby={`${ids}-label`}>
        {photos.map((photo, index) => (
          <li key={photo.id} className="relative size-24 border border-line bg-paper-2">
            <img
              src={photo.preview}
              alt={photo.name}
              className={`size-full object-cover ${photo.key ? '' : 'opacity-50'}`}
            />
            {!photo.key && !photo.problem && (
              <span
                className="absolute inset-x-0 bottom-0 bg-paper/90 py-0.5 text-center text-xs"
                role="status"
              >
                {TEXT.uploading}
              </span>
            )}
            <button
              type="button"
              onClick={() => remove(photo)}
              aria-label={TEXT.removePhoto(index + 1)}
              className="absolute -top-3 -right-3 grid size-11 place-items-center"
            >
              <span className="grid size-7 place-items-center rounded-full border border-line bg-paper shadow-sm">
                <X size={14} aria-hidden />
              </span>
            </button>
          </li>
        ))}
        {photos.length < RETURN_PHOTOS_MAX && (
          <li>
            <label className="grid size-24 cursor-pointer place-items-center border border-dashed border-ink-soft text-center text-xs font-semibold uppercase tracking-[0.12em] hover:border-ink has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent">
              <span className="grid justify-items-center gap-1.5">
                <Camera size={20} aria-hidden />
                {TEXT.addPhoto}
              </span>
              <input
                ref={input}
                type="file"
                accept="image/jpeg,image/png,image/webp,image/heic"
                multiple
                aria-describedby={`${ids}-note`}
                className="sr-only"
                onChange={(event) => add(event.target.files)}
              />
            </label>
          </li>
        )}
      </ul>
      {photos.map(
        (photo, index) =>
          photo.problem && (
            <p key={photo.id} className="mt-2 text-sm text-danger" role="alert">
              Photo {index + 1}: {photo.problem}
            </p>
          ),
      )}
    </div>
  );
}

/** Sends one picture as the request's body; answers its key, or the server's text. */
async function sendPhoto(file: File): Promise<{ key: string } | { problem: string }> {
  // Refused before a byte is sent: the server would refuse it after all of them.
  if (file.size > PHOTO_MAX_BYTES) return { problem: PHOTO_TEXT.tooLarge };
  if (file.size === 0) return { problem: PHOTO_TEXT.empty };
  try {
    const response = await fetch(RETURN_PHOTO_UPLOAD_PATH, {
      method: 'POST',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
    const body = (await response.json().catch(() => ({}))) as { key?: string; message?: string };
    return response.ok && body.key
      ? { key: body.key }
      : { problem: body.message ?? PHOTO_TEXT.failed };
  } catch {
    return { problem: PHOTO_TEXT.failed };
  }
}
