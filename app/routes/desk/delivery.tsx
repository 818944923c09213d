// Delivery on the desk (/desk/delivery, issue 23; desk.deliveryOptions /
// desk.saveDeliveryOptions): each option as a card (its name, fee, days, details, whether it takes
// cash on delivery and whether it is offered), Kampala zones and other options added, and the
// free-delivery threshold. Fees are money: the owner changes them; staff read them (the server
// refuses their save whatever this page does). Options are never deleted: orders name them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import * as v from 'valibot';
import { Field, inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { DELIVERY_KINDS, type DeliveryKind, deliveryPromise } from '#core/delivery-rules.ts';
import {
  DESK_DELIVERY_TEXT,
  deliveryOptionInput,
  KIND_LABELS,
  newOption,
  OPTION_DETAILS_MAX,
  OPTION_NAME_MAX,
  saveDeliveryInput,
} from '#core/desk-delivery.ts';

export const Route = createFileRoute('/desk/delivery')({
  head: privatePageHead('Delivery · Desk'),
  component: Delivery,
});

type Loaded = ApiOutput['desk']['deliveryOptions'];

/** An option as typed: numbers stay text until the save, so nothing typed is lost. */
type Draft = {
  /** The card's own key (an option's id, or one made for a new card). */
  key: string;
  id?: string;
  kind: DeliveryKind;
  name: string;
  fee: string;
  minDays: string;
  maxDays: string;
  details: string;
  cashOnDelivery: boolean;
  active: boolean;
};

function Delivery() {
  const trpc = useTRPC();
  const loaded = useQuery(trpc.desk.deliveryOptions.queryOptions());
  if (loaded.isPending) return <Loading text="Loading delivery..." />;
  if (loaded.isError) {
    return (
      <DeskPageProblem title="Delivery">
        {errorMessage(loaded.error, 'Delivery could not be loaded.')}
      </DeskPageProblem>
    );
  }
  return (
    <DeskPage title="Delivery">
      {/* A fresh form after each save: new options come back with their ids. */}
      <DeliveryForm key={loaded.dataUpdatedAt} loaded={loaded.data} />
    </DeskPage>
  );
}

const drafted = (o: Loaded['options'][number]): Draft => ({
  key: o.id,
  id: o.id,
  kind: o.kind,
  name: o.name,
  fee: o.fee.toLocaleString('en-US'),
  minDays: String(o.minDays),
  maxDays: String(o.maxDays),
  details: o.details,
  cashOnDelivery: o.cashOnDelivery,
  active: o.active,
});

/** Text typed as a whole number ('7,000' is 7000); blank or anything else is not a number. */
function typedNumber(text: string): number {
  const plain = text.replace(/[\s,]/g, '');
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}

function asSent(draft: Draft) {
  return {
    ...(draft.id ? { id: draft.id } : {}),
    kind: draft.kind,
    name: draft.name,
    fee: typedNumber(draft.fee),
    minDays: typedNumber(draft.minDays),
    maxDays: typedNumber(draft.maxDays),
    details: draft.details,
    cashOnDelivery: draft.cashOnDelivery,
    active: draft.active,
  };
}

function DeliveryForm({ loaded }: { loaded: Loaded }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const owner = loaded.role === 'owner';
  const [drafts, setDrafts] = useState<Draft[]>(() => loaded.options.map(drafted));
  const [free, setFree] = useState(
    loaded.freeDeliveryOver === null ? '' : loaded.freeDeliveryOver.toLocaleString('en-US'),
  );
  const [kind, setKind] = useState<DeliveryKind>('courier');
  // A save's key: made when the form opens, kept for retries (a new form after a save).
  const [requestKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(
    trpc.desk.saveDeliveryOptions.mutationOptions({
      onSuccess: async () => {
        setProblem(null);
        toast.success(DESK_DELIVERY_TEXT.saved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.deliveryOptions.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.checkout.deliveryOptions.queryKey() });
      },
      onError: (error) => {
        const text = errorMessage(error, 'Delivery could not be saved. Try again.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );

  const change = (key: string, patch: Partial<Draft>) =>
    setDrafts((now) => now.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  const add = (of: DeliveryKind) =>
    setDrafts((now) => [
      ...now,
      {
        key: crypto.randomUUID(),
        ...newOption(of),
        fee: newOption(of).fee.toLocaleString('en-US'),
        minDays: String(newOption(of).minDays),
        maxDays: String(newOption(of).maxDays),
      },
    ]);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const options = drafts.map(asSent);
    // Each card's problem names the card, so the owner knows where to look.
    for (const [index, option] of options.entries()) {
      const checked = v.safeParse(deliveryOptionInput, option);
      if (!checked.success) {
        const name = option.name.trim() || `Option ${index + 1}`;
        setProblem(`${name}: ${checked.issues[0].message}`);
        return;
      }
    }
    const payload = {
      requestKey,
      options,
      freeDeliveryOver: free.trim() === '' ? null : typedNumber(free),
    };
    const checked = v.safeParse(saveDeliveryInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload);
  }

  // What shoppers will read on the product pages, from the options as typed.
  const offered = drafts.flatMap((d) => {
    const o = asSent(d);
    return d.active && [o.fee, o.minDays, o.maxDays].every(Number.isInteger)
      ? [{ ...o, id: d.key }]
      : [];
  });
  const threshold = typedNumber(free);
  const promise = deliveryPromise({
    options: offered,
    freeDeliveryOver: Number.isInteger(threshold) && threshold > 0 ? threshold : null,
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start xl:gap-12"
    >
      <div className="min-w-0 space-y-6">
        {!owner && (
          <Notice tone="info">
            Delivery fees are money settings: only the shop’s owner changes them. This is what
            shoppers are offered.
          </Notice>
        )}
        <fieldset disabled={!owner} className="min-w-0 space-y-6">
          <legend className="sr-only">Delivery options</legend>
          {drafts.map((draft, index) => (
            <OptionCard
              key={draft.key}
              draft={draft}
              index={index}
              onChange={(patch) => change(draft.key, patch)}
            />
          ))}
        </fieldset>

        {owner && (
          <div className="flex flex-col gap-4 border border-dashed border-line p-4 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between sm:p-6">
            <button
              type="button"
              className="btn btn-outline min-h-12 w-full sm:w-auto"
              onClick={() => add('delivery')}
            >
              <Plus size={16} aria-hidden /> Add a Kampala zone
            </button>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <label className="min-w-0 text-xs font-semibold uppercase tracking-[0.16em]">
                Kind of option
                <select
                  value={kind}
                  onChange={(event) => setKind(event.target.value as DeliveryKind)}
                  className={`${inputClass} min-h-12 font-normal normal-case tracking-normal`}
                >
                  {DELIVERY_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {KIND_LABELS[k]}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                className="btn btn-outline min-h-12 w-full sm:w-auto"
                onClick={() => add(kind)}
              >
                <Plus size={16} aria-hidden /> Add an option
              </button>
            </div>
          </div>
        )}
      </div>

      {/* Beside the cards on a desktop (in sight while scrolling), after them on a phone. */}
      <aside className="space-y-6 lg:sticky lg:top-24" aria-label="Promise and threshold">
        <section aria-labelledby="promise" className="border border-line bg-paper-2 px-5 py-4">
          <h2 id="promise" className="text-xs font-semibold uppercase tracking-[0.16em]">
            Shoppers read
          </h2>
          <p className="mt-2 font-display text-xl leading-snug" data-testid="delivery-promise">
            {promise || 'No delivery offered'}
          </p>
          <p className="mt-2 text-xs text-ink-soft">On every product page, from what you save.</p>
        </section>
        <Field
          label="Free delivery over (UGX)"
          name="freeDeliveryOver"
          inputMode="numeric"
          autoComplete="off"
          placeholder="Blank: off"
          value={free}
          disabled={!owner}
          onChange={(event) => setFree(event.target.value)}
          note="At or above this order total, every option is free. Leave blank for no free delivery."
        />
        {problem && <Notice tone="error">{problem}</Notice>}
        {owner && (
          <SaveButton pending={save.isPending} className="w-full">
            Save delivery
          </SaveButton>
        )}
      </aside>
    </form>
  );
}

function OptionCard({
  draft,
  index,
  onChange,
}: {
  draft: Draft;
  index: number;
  onChange: (patch: Partial<Draft>) => void;
}) {
  const text =
    (name: 'name' | 'fee' | 'minDays' | 'maxDays') => (event: { target: { value: string } }) =>
      onChange({ [name]: event.target.value });
  const title = draft.id
    ? draft.name.trim() || `Option ${index + 1}`
    : `New ${draft.kind === 'delivery' ? 'Kampala zone' : KIND_LABELS[draft.kind].toLowerCase()}`;
  return (
    <fieldset
      className={`min-w-0 border border-line p-4 sm:p-6 ${draft.active ? 'bg-paper' : 'bg-paper-2'}`}
    >
      <legend className="px-2 font-display text-2xl">{title}</legend>
      <p className="-mt-1 text-xs uppercase tracking-[0.14em] text-ink-soft">
        {KIND_LABELS[draft.kind]}
        {!draft.active && ' · Not offered: kept for the orders that name it'}
      </p>
      <div className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-12">
        <Field
          label="Name"
          value={draft.name}
          onChange={text('name')}
          maxLength={OPTION_NAME_MAX}
          autoComplete="off"
          placeholder={draft.kind === 'delivery' ? 'e.g. Nakawa' : ''}
          className="col-span-2 sm:col-span-5"
        />
        <Field
          label="Fee (UGX)"
          value={draft.fee}
          onChange={text('fee')}
          inputMode="numeric"
          autoComplete="off"
          className="col-span-2 sm:col-span-3"
        />
        <Field
          label="Days from"
          value={draft.minDays}
          onChange={text('minDays')}
          inputMode="numeric"
          autoComplete="off"
          className="sm:col-span-2"
        />
        <Field
          label="Days to"
          value={draft.maxDays}
          onChange={text('maxDays')}
          inputMode="numeric"
          autoComplete="off"
          className="sm:col-span-2"
        />
        <TextArea
          label="Details"
          rows={2}
          maxLength={OPTION_DETAILS_MAX}
          value={draft.details}
          onChange={(event) => onChange({ details: event.target.value })}
          note={
            <>
              Shown under the choice at checkout
              {draft.kind === 'pickup' ? ': the boutique’s address and hours.' : '.'}
            </>
          }
          className="col-span-2 sm:col-span-12"
        />
      </div>
      <div className="mt-3 flex flex-wrap gap-x-6">
        <Check
          label="Takes cash on delivery"
          checked={draft.cashOnDelivery}
          onChange={(checked) => onChange({ cashOnDelivery: checked })}
        />
        <Check
          label="Offered"
          checked={draft.active}
          onChange={(checked) => onChange({ active: checked })}
        />
      </div>
    </fieldset>
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
  return (
    <label className="inline-flex min-h-12 cursor-pointer items-center gap-3 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-5 accent-ink"
      />
      {label}
    </label>
  );
}
