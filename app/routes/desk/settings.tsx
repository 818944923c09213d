// The shop's settings (/desk/settings, desk.settings / desk.saveSettings): the admin's and the
// support's contact, the bank details, the exchange rates, the low-stock threshold and the
// returns' windows and pickup fee (issue 36). A blank
// field gives the shop's configuration back. Staff change the support contact and the
// threshold; the owner everything (the server refuses the rest to staff whatever this page does).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import * as v from 'valibot';
import { Field, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { FormGroup } from '#app/components/desk/FormGroup.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { OWNER_SETTINGS, SHOP_TEXT, saveSettingsInput } from '#core/desk-shop.ts';
import { FOREIGN_CURRENCIES, type ForeignCurrency } from '#core/money.ts';
import { DEFAULT_EXCHANGE_DAYS, DEFAULT_RETURN_DAYS } from '#core/return-windows.ts';

/** The pickup fee's rules (decision 0086): a piece the shop got wrong is always fetched free. */
const PICKUP_FEE_CHOICES = [
  [
    'zone',
    'The delivery zone’s fee',
    'Taken from the refund; free when the piece arrived damaged or wrong.',
  ],
  ['free', 'Free', 'The shop pays the rider for every return.'],
] as const;

export const Route = createFileRoute('/desk/settings')({
  head: privatePageHead('Settings · Desk'),
  component: Settings,
});

type Loaded = ApiOutput['desk']['settings'];
type Form = {
  adminPhone: string;
  supportPhone: string;
  supportEmail: string;
  bankDetails: string;
  USD: string;
  EUR: string;
  GBP: string;
  lowStockThreshold: string;
  returnDays: string;
  exchangeDays: string;
  returnPickupFee: 'zone' | 'free';
};

function Settings() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.desk.settings.queryOptions());
  if (settings.isPending) return <Loading text="Loading the settings..." />;
  if (settings.isError) {
    return (
      <DeskPageProblem title="Settings">
        {errorMessage(settings.error, 'The settings could not be loaded.')}
      </DeskPageProblem>
    );
  }
  return (
    <DeskPage title="Settings">
      <SettingsForm loaded={settings.data} />
    </DeskPage>
  );
}

/** What the desk set shows in its field; what the configuration gives shows beside an empty one. */
function initialForm({ values, sources }: Loaded): Form {
  const own = (name: keyof Loaded['sources'], value: string | number | null | undefined) =>
    sources[name] === 'desk' && value != null ? String(value) : '';
  return {
    adminPhone: own('adminPhone', values.adminPhone),
    supportPhone: own('supportPhone', values.supportPhone),
    supportEmail: own('supportEmail', values.supportEmail),
    bankDetails: own('bankDetails', values.bankDetails),
    USD: own('exchangeRates', values.exchangeRates?.USD),
    EUR: own('exchangeRates', values.exchangeRates?.EUR),
    GBP: own('exchangeRates', values.exchangeRates?.GBP),
    lowStockThreshold: own('lowStockThreshold', values.lowStockThreshold),
    returnDays: own('returnDays', values.returnDays),
    exchangeDays: own('exchangeDays', values.exchangeDays),
    returnPickupFee: values.returnPickupFee,
  };
}

/** A typed whole number; blank: null (the default again). */
const typedWhole = (text: string) => (text.trim() === '' ? null : Number(text));

function SettingsForm({ loaded }: { loaded: Loaded }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => initialForm(loaded));
  // A save's key: made when the form opens, kept for retries, renewed after a save.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const owner = loaded.role === 'owner';
  const locked = (name: string) => !owner && (OWNER_SETTINGS as readonly string[]).includes(name);
  const save = useMutation(
    trpc.desk.saveSettings.mutationOptions({
      onSuccess: async () => {
        setProblem(null);
        setRequestKey(crypto.randomUUID());
        toast.success(SHOP_TEXT.saved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.settings.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.contact.channels.queryKey() });
      },
      onError: (error) => {
        const text = errorMessage(error, 'The settings could not be saved. Try again.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );

  const set = (name: keyof Form) => (event: { target: { value: string } }) =>
    setForm((now) => ({ ...now, [name]: event.target.value }));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const rates = FOREIGN_CURRENCIES.map((code) => form[code].trim());
    if (rates.some(Boolean) && !rates.every(Boolean)) {
      setProblem(SHOP_TEXT.ratesTogether);
      return;
    }
    const payload = {
      requestKey,
      supportPhone: form.supportPhone,
      supportEmail: form.supportEmail,
      lowStockThreshold: typedWhole(form.lowStockThreshold),
      returnDays: typedWhole(form.returnDays),
      exchangeDays: typedWhole(form.exchangeDays),
      returnPickupFee: form.returnPickupFee,
      ...(owner
        ? {
            adminPhone: form.adminPhone,
            bankDetails: form.bankDetails,
            exchangeRates: rates.every(Boolean)
              ? (Object.fromEntries(FOREIGN_CURRENCIES.map((c) => [c, Number(form[c])])) as Record<
                  ForeignCurrency,
                  number
                >)
              : null,
          }
        : {}),
    };
    const checked = v.safeParse(saveSettingsInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload);
  }

  const { values, sources } = loaded;
  const days = (name: 'returnDays' | 'exchangeDays', now: number, standard: number) =>
    locked(name)
      ? 'Only the owner changes this.'
      : sources[name] === 'desk'
        ? `${now} days. Leave blank for ${standard}, the default.`
        : `Blank: ${standard}, the default.`;
  const from = (name: keyof Loaded['sources'], shown: string | null) =>
    sources[name] === 'desk'
      ? 'Set here. Leave blank for the shop’s configuration.'
      : shown
        ? `Blank: the configuration’s ${shown}.`
        : 'Blank: not set.';

  return (
    <form onSubmit={submit} noValidate className="mt-8 max-w-2xl space-y-10">
      {problem && <Notice tone="error">{problem}</Notice>}
      <FormGroup
        title="Contact"
        intro="Order alerts go to the admin phone; shoppers see the support phone and email."
      >
        <Field
          label="Admin phone"
          name="adminPhone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={form.adminPhone}
          onChange={set('adminPhone')}
          disabled={locked('adminPhone')}
          placeholder={values.adminPhone ?? '0772 123 456'}
          note={
            locked('adminPhone')
              ? 'Only the owner changes this.'
              : from('adminPhone', values.adminPhone)
          }
        />
        <Field
          label="Support phone"
          name="supportPhone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={form.supportPhone}
          onChange={set('supportPhone')}
          placeholder={values.supportPhone}
          note={from('supportPhone', values.supportPhone)}
        />
        <Field
          label="Support email"
          name="supportEmail"
          type="email"
          autoComplete="off"
          value={form.supportEmail}
          onChange={set('supportEmail')}
          placeholder={values.supportEmail}
          note={from('supportEmail', values.supportEmail)}
        />
      </FormGroup>

      <FormGroup title="Money" intro="Only the owner changes these.">
        <TextArea
          label="Bank transfer details"
          value={form.bankDetails}
          onChange={set('bankDetails')}
          disabled={locked('bankDetails')}
          placeholder={values.bankDetails ?? 'Bank, account name, account number'}
          note={from('bankDetails', values.bankDetails ? 'details' : null)}
        />
        <fieldset>
          <legend className="text-xs font-semibold uppercase tracking-[0.16em]">
            Exchange rates (UGX for one)
          </legend>
          <p className="mt-1 text-xs text-ink-soft">
            {values.exchangeRates
              ? `Set on ${values.exchangeRates.setOn}. Shoppers who choose a currency see approximate prices.`
              : 'Not set: shoppers see prices in UGX only.'}
          </p>
          <div className="mt-2 grid grid-cols-3 gap-3">
            {FOREIGN_CURRENCIES.map((code) => (
              <Field
                key={code}
                label={code}
                name={code}
                inputMode="numeric"
                autoComplete="off"
                className="min-w-0"
                value={form[code]}
                onChange={set(code)}
                disabled={locked('exchangeRates')}
              />
            ))}
          </div>
        </fieldset>
      </FormGroup>

      <FormGroup title="Stock">
        <Field
          label="Low-stock threshold"
          name="lowStockThreshold"
          inputMode="numeric"
          autoComplete="off"
          value={form.lowStockThreshold}
          onChange={set('lowStockThreshold')}
          placeholder={String(values.lowStockThreshold)}
          note={`A size with this many or fewer left is low stock. ${
            sources.lowStockThreshold === 'desk'
              ? from('lowStockThreshold', null)
              : `Blank: ${values.lowStockThreshold}, the default.`
          }`}
        />
      </FormGroup>

      <FormGroup
        title="Returns"
        intro="Days count from the day an order is delivered or collected (that day is day 0)."
      >
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="Return days"
            name="returnDays"
            inputMode="numeric"
            autoComplete="off"
            className="min-w-0"
            value={form.returnDays}
            onChange={set('returnDays')}
            disabled={locked('returnDays')}
            placeholder={String(values.returnDays)}
            note={days('returnDays', values.returnDays, DEFAULT_RETURN_DAYS)}
          />
          <Field
            label="Exchange days"
            name="exchangeDays"
            inputMode="numeric"
            autoComplete="off"
            className="min-w-0"
            value={form.exchangeDays}
            onChange={set('exchangeDays')}
            disabled={locked('exchangeDays')}
            placeholder={String(values.exchangeDays)}
            note={days('exchangeDays', values.exchangeDays, DEFAULT_EXCHANGE_DAYS)}
          />
        </div>
        <fieldset disabled={locked('returnPickupFee')}>
          <legend className="text-xs font-semibold uppercase tracking-[0.16em]">
            The rider’s pickup of a return
          </legend>
          <div className="mt-2 grid gap-2">
            {PICKUP_FEE_CHOICES.map(([rule, label, note]) => (
              <label
                key={rule}
                className="flex min-h-12 cursor-pointer items-start gap-3 border border-line px-3 py-2.5 text-sm has-[:checked]:border-ink"
              >
                <input
                  type="radio"
                  name="returnPickupFee"
                  value={rule}
                  checked={form.returnPickupFee === rule}
                  onChange={() => setForm((now) => ({ ...now, returnPickupFee: rule }))}
                  className="mt-0.5 size-4 shrink-0 accent-[var(--color-ink)]"
                />
                <span>
                  <span className="block font-medium">{label}</span>
                  <span className="block text-xs text-ink-soft">{note}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </FormGroup>

      <SaveButton pending={save.isPending} className="w-full sm:w-auto">
        Save settings
      </SaveButton>
    </form>
  );
}
