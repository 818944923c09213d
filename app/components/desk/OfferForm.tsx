// The desk's offer form (issue 35; desk.saveOffer): made for the owner in the shop with one hand
// free on a phone — big targets, a sensible offer from the start (10 % off everything, automatic,
// on from now), "This weekend" for the boutique's usual sale, categories and pieces to tap for the
// target. Dates are typed in Kampala time and sent as instants.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { Field, Notice } from '#app/components/account/ui.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { errorMessage } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import {
  fromKampalaInput,
  OFFER_NAME_MAX,
  OFFER_TAG_MAX,
  saveOfferInput,
  DESK_OFFERS_TEXT as T,
  thisWeekend,
  toKampalaInput,
} from '#core/offer-form.ts';
import type { OfferKind } from '#core/offers.ts';

type Loaded = ApiOutput['desk']['offers'];
export type DeskOfferRow = Loaded['offers'][number];

const KINDS: { kind: OfferKind; label: string }[] = [
  { kind: 'percent', label: '% off' },
  { kind: 'fixed', label: 'Amount off' },
  { kind: 'free_delivery', label: 'Free delivery' },
  { kind: 'buy_x_get_y', label: 'Buy X get Y' },
];

/** The offer as typed: numbers stay text until the save, so nothing typed is lost. */
type Draft = {
  name: string;
  code: string;
  kind: OfferKind;
  value: string;
  wholeOrder: boolean;
  categoryIds: number[];
  productIds: number[];
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perShopperLimit: string;
  combinable: boolean;
  firstOrderOnly: boolean;
  buyQuantity: string;
  getQuantity: string;
  tag: string;
  active: boolean;
};

const NEW_OFFER: Draft = {
  name: '',
  code: '',
  kind: 'percent',
  value: '10',
  wholeOrder: true,
  categoryIds: [],
  productIds: [],
  minSubtotal: '',
  startsAt: '',
  endsAt: '',
  usageLimit: '',
  perShopperLimit: '',
  combinable: false,
  firstOrderOnly: false,
  buyQuantity: '2',
  getQuantity: '1',
  tag: '',
  active: true,
};

const shown = (n: number | null) => (n === null ? '' : String(n));

function drafted(offer: DeskOfferRow): Draft {
  const categoryIds = offer.appliesTo?.categoryIds ?? [];
  const productIds = offer.appliesTo?.productIds ?? [];
  return {
    name: offer.name,
    code: offer.code ?? '',
    kind: offer.kind,
    value: String(offer.value),
    wholeOrder: categoryIds.length === 0 && productIds.length === 0,
    categoryIds,
    productIds,
    minSubtotal: shown(offer.minSubtotal),
    startsAt: toKampalaInput(offer.startsAt),
    endsAt: toKampalaInput(offer.endsAt),
    usageLimit: shown(offer.usageLimit),
    perShopperLimit: shown(offer.perShopperLimit),
    combinable: offer.combinable,
    firstOrderOnly: offer.firstOrderOnly,
    buyQuantity: shown(offer.buyQuantity) || '2',
    getQuantity: shown(offer.getQuantity) || '1',
    tag: offer.tag ?? '',
    active: offer.active,
  };
}

/** Text typed as a whole number ('7,000' is 7000); blank is null; anything else NaN. */
function typedNumber(text: string): number | null {
  const plain = text.replace(/[\s,]/g, '');
  if (plain === '') return null;
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}

/** A typed date as the instant it names (blank: open); unreadable stays as typed, to be refused. */
const typedInstant = (text: string) => (text ? (fromKampalaInput(text) ?? text) : null);

export function OfferForm({
  offer,
  loaded,
  onDone,
}: {
  offer: DeskOfferRow | null;
  loaded: Loaded;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => (offer ? drafted(offer) : NEW_OFFER));
  const [requestKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const [pieceFilter, setPieceFilter] = useState('');
  const change = (patch: Partial<Draft>) => setDraft((now) => ({ ...now, ...patch }));
  const save = useMutation(
    trpc.desk.saveOffer.mutationOptions({
      onSuccess: async () => {
        setProblem(null);
        toast.success(T.saved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.offers.queryKey() });
        onDone();
      },
      onError: (error) => {
        const text = errorMessage(error, 'The offer could not be saved. Try again.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const payload = {
      ...(offer ? { id: offer.id } : {}),
      requestKey,
      name: draft.name,
      code: draft.code.trim() || null,
      kind: draft.kind,
      value: draft.kind === 'free_delivery' ? 0 : (typedNumber(draft.value) ?? Number.NaN),
      appliesTo: draft.wholeOrder
        ? null
        : { categoryIds: draft.categoryIds, productIds: draft.productIds },
      minSubtotal: typedNumber(draft.minSubtotal),
      startsAt: typedInstant(draft.startsAt),
      endsAt: typedInstant(draft.endsAt),
      usageLimit: typedNumber(draft.usageLimit),
      perShopperLimit: typedNumber(draft.perShopperLimit),
      combinable: draft.combinable,
      firstOrderOnly: draft.firstOrderOnly,
      buyQuantity: draft.kind === 'buy_x_get_y' ? typedNumber(draft.buyQuantity) : null,
      getQuantity: draft.kind === 'buy_x_get_y' ? typedNumber(draft.getQuantity) : null,
      tag: draft.tag,
      active: draft.active,
    };
    const checked = v.safeParse(saveOfferInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload);
  }

  const toggle = (list: number[], id: number) =>
    list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
  const filter = pieceFilter.trim().toLowerCase();
  const pieces = loaded.pieces.filter(
    (p) => draft.productIds.includes(p.id) || (filter && p.name.toLowerCase().includes(filter)),
  );
  const valueLabel =
    draft.kind === 'fixed'
      ? 'Amount off (UGX)'
      : draft.kind === 'buy_x_get_y'
        ? 'Their discount (%, 100: free)'
        : 'Percent off';

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-6 space-y-8"
      aria-label={offer ? T.editOffer : T.newOffer}
    >
      <h2 className="font-display text-3xl">{offer ? T.editOffer : T.newOffer}</h2>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Name"
          value={draft.name}
          onChange={(e) => change({ name: e.target.value })}
          maxLength={OFFER_NAME_MAX}
          autoComplete="off"
          placeholder="e.g. Weekend sale"
        />
        <Field
          label="Code"
          value={draft.code}
          onChange={(e) => change({ code: e.target.value })}
          maxLength={20}
          autoComplete="off"
          autoCapitalize="characters"
          placeholder="Blank: automatic"
          note="Shoppers type it at checkout (any case), e.g. NAKATO10. Blank: every shopper gets it."
        />
      </div>

      <fieldset>
        <legend className="text-xs font-semibold uppercase tracking-[0.16em]">What it gives</legend>
        <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {KINDS.map(({ kind, label }) => (
            <label
              key={kind}
              className="flex min-h-12 cursor-pointer items-center justify-center border border-line px-3 text-center text-sm has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-paper"
            >
              <input
                type="radio"
                name="kind"
                value={kind}
                checked={draft.kind === kind}
                onChange={() => change({ kind })}
                className="sr-only"
              />
              {label}
            </label>
          ))}
        </div>
        <div className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          {draft.kind !== 'free_delivery' && (
            <Field
              label={valueLabel}
              value={draft.value}
              onChange={(e) => change({ value: e.target.value })}
              inputMode="numeric"
              autoComplete="off"
              className="col-span-2 sm:col-span-2"
            />
          )}
          {draft.kind === 'buy_x_get_y' && (
            <>
              <Field
                label="Buy"
                value={draft.buyQuantity}
                onChange={(e) => change({ buyQuantity: e.target.value })}
                inputMode="numeric"
                autoComplete="off"
              />
              <Field
                label="Get"
                value={draft.getQuantity}
                onChange={(e) => change({ getQuantity: e.target.value })}
                inputMode="numeric"
                autoComplete="off"
                note="The cheaper ones"
              />
            </>
          )}
        </div>
      </fieldset>

      <fieldset>
        <legend className="text-xs font-semibold uppercase tracking-[0.16em]">On what</legend>
        <div className="mt-2 grid grid-cols-2 gap-2">
          {[
            { whole: true, label: 'Whole order' },
            { whole: false, label: 'Categories or pieces' },
          ].map(({ whole, label }) => (
            <label
              key={label}
              className="flex min-h-12 cursor-pointer items-center justify-center border border-line px-3 text-center text-sm has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-paper"
            >
              <input
                type="radio"
                name="target"
                checked={draft.wholeOrder === whole}
                onChange={() => change({ wholeOrder: whole })}
                className="sr-only"
              />
              {label}
            </label>
          ))}
        </div>
        {!draft.wholeOrder && (
          <div className="mt-4 space-y-4">
            <fieldset className="flex flex-wrap gap-2">
              <legend className="sr-only">Categories</legend>
              {loaded.categories.map((c) => (
                <Chip
                  key={c.id}
                  label={c.name}
                  checked={draft.categoryIds.includes(c.id)}
                  onChange={() => change({ categoryIds: toggle(draft.categoryIds, c.id) })}
                />
              ))}
            </fieldset>
            <Field
              label="Find pieces"
              type="search"
              value={pieceFilter}
              onChange={(e) => setPieceFilter(e.target.value)}
              autoComplete="off"
              placeholder="Type a name, e.g. kitenge"
            />
            {pieces.length > 0 && (
              <fieldset className="flex flex-wrap gap-2">
                <legend className="sr-only">Pieces</legend>
                {pieces.slice(0, 40).map((p) => (
                  <Chip
                    key={p.id}
                    label={p.name}
                    checked={draft.productIds.includes(p.id)}
                    onChange={() => change({ productIds: toggle(draft.productIds, p.id) })}
                  />
                ))}
              </fieldset>
            )}
          </div>
        )}
      </fieldset>

      <fieldset>
        <legend className="text-xs font-semibold uppercase tracking-[0.16em]">
          When (Kampala time)
        </legend>
        <button
          type="button"
          className="btn btn-outline mt-2 min-h-12 w-full sm:w-auto"
          onClick={() => {
            const weekend = thisWeekend(new Date());
            change({
              startsAt: toKampalaInput(weekend.startsAt),
              endsAt: toKampalaInput(weekend.endsAt),
            });
          }}
        >
          {T.thisWeekend}
        </button>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field
            label="Starts"
            type="datetime-local"
            value={draft.startsAt}
            onChange={(e) => change({ startsAt: e.target.value })}
            note="Blank: from now."
          />
          <Field
            label="Ends"
            type="datetime-local"
            value={draft.endsAt}
            onChange={(e) => change({ endsAt: e.target.value })}
            note="Blank: until you switch it off."
          />
        </div>
      </fieldset>

      <details className="border border-line p-4">
        <summary className="min-h-8 cursor-pointer text-sm font-semibold">
          Limits, minimum and tag
        </summary>
        <div className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Field
            label="Minimum order (UGX)"
            value={draft.minSubtotal}
            onChange={(e) => change({ minSubtotal: e.target.value })}
            inputMode="numeric"
            autoComplete="off"
            placeholder="None"
            className="col-span-2"
          />
          <Field
            label="Total uses"
            value={draft.usageLimit}
            onChange={(e) => change({ usageLimit: e.target.value })}
            inputMode="numeric"
            autoComplete="off"
            placeholder="No limit"
          />
          <Field
            label="Per shopper"
            value={draft.perShopperLimit}
            onChange={(e) => change({ perShopperLimit: e.target.value })}
            inputMode="numeric"
            autoComplete="off"
            placeholder="No limit"
          />
          <Field
            label="Tag (who brings the sales)"
            value={draft.tag}
            onChange={(e) => change({ tag: e.target.value })}
            maxLength={OFFER_TAG_MAX}
            autoComplete="off"
            placeholder="e.g. Nakato"
            className="col-span-2"
          />
        </div>
        <div className="mt-2 flex flex-wrap gap-x-6">
          <Check
            label="Combines with other offers"
            checked={draft.combinable}
            onChange={(combinable) => change({ combinable })}
          />
          <Check
            label="First order only"
            checked={draft.firstOrderOnly}
            onChange={(firstOrderOnly) => change({ firstOrderOnly })}
          />
        </div>
      </details>

      <Check label="On" checked={draft.active} onChange={(active) => change({ active })} />
      {problem && <Notice tone="error">{problem}</Notice>}
      <div className="flex flex-col gap-3 sm:flex-row">
        <SaveButton pending={save.isPending} className="w-full sm:w-auto">
          Save offer
        </SaveButton>
        <button
          type="button"
          className="btn btn-outline min-h-12 w-full sm:w-auto"
          onClick={onDone}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

function Chip({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: () => void;
}) {
  return (
    <label className="inline-flex min-h-12 cursor-pointer items-center gap-2 border border-line px-4 text-sm has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-paper">
      <input type="checkbox" checked={checked} onChange={onChange} className="sr-only" />
      {label}
    </label>
  );
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="inline-flex min-h-12 cursor-pointer items-center gap-3 text-sm">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-5 accent-ink"
      />
      {label}
    </label>
  );
}
