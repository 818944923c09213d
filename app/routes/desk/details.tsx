// The shop's own details (/desk/details, desk.storeDetails / desk.saveStoreDetails; issue 34,
// decision 0077): the address and landmark, the map pin, the week's opening hours, the pickup
// hours, the social links, the TIN and the WhatsApp number (issue 37). The owner's only. A save sends only what changed; a blank
// field gives today's shop (or the configuration's links) back. Phone first: one column, the week
// as seven rows of opening and closing times, each with its Closed switch.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ExternalLink } from 'lucide-react';
import { useId, useState } from 'react';
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
import {
  ADDRESS_MAX,
  LANDMARK_MAX,
  PICKUP_HOURS_MAX,
  type SaveStoreDetailsInput,
  saveStoreDetailsInput,
  DESK_STORE_DETAILS_TEXT as TEXT,
} from '#core/desk-store-details.ts';
import { DAY_LABELS, DAYS, type Day, mapLink, type WeekHours } from '#core/store-details.ts';

export const Route = createFileRoute('/desk/details')({
  head: privatePageHead('Shop details · Desk'),
  component: StoreDetailsPage,
});

type Loaded = ApiOutput['desk']['storeDetails'];
type DayForm = { closed: boolean; open: string; close: string };
type Form = {
  address: string;
  landmark: string;
  latitude: string;
  longitude: string;
  hours: Record<Day, DayForm>;
  pickupHours: string;
  socialLinks: string;
  tin: string;
  whatsappNumber: string;
};

function StoreDetailsPage() {
  const trpc = useTRPC();
  const loaded = useQuery(trpc.desk.storeDetails.queryOptions());
  if (loaded.isPending) return <Loading text="Loading the shop details..." />;
  if (loaded.isError) {
    return (
      <DeskPageProblem title={TEXT.title}>
        {errorMessage(loaded.error, 'The shop details could not be loaded.')}
      </DeskPageProblem>
    );
  }
  return (
    <DeskPage title={TEXT.title}>
      <DetailsForm loaded={loaded.data} />
    </DeskPage>
  );
}

/** The form as the stored details fill it: what the desk set in its field, the rest blank. */
function initialForm({ details, sources }: Loaded): Form {
  const own = (name: keyof Loaded['sources'], value: string | number | null) =>
    sources[name] === 'desk' && value !== null ? String(value) : '';
  return {
    address: own('address', details.address),
    landmark: own('landmark', details.landmark),
    latitude: own('latitude', details.latitude),
    longitude: own('longitude', details.longitude),
    hours: Object.fromEntries(
      DAYS.map((day) => {
        const hours = details.hours[day];
        return [
          day,
          hours
            ? { closed: false, open: hours.open, close: hours.close }
            : { closed: true, open: '09:00', close: '18:00' },
        ];
      }),
    ) as Record<Day, DayForm>,
    pickupHours: own('pickupHours', details.pickupHours),
    socialLinks:
      sources.socialLinks === 'desk' ? details.socialLinks.map((l) => l.url).join('\n') : '',
    tin: own('tin', details.tin),
    whatsappNumber: own('whatsappNumber', details.whatsappNumber),
  };
}

const weekOf = (hours: Form['hours']): WeekHours =>
  Object.fromEntries(
    DAYS.map((day) => {
      const h = hours[day];
      return [day, h.closed ? null : { open: h.open, close: h.close }];
    }),
  ) as WeekHours;

const blankToNull = (text: string) => (text.trim() === '' ? null : text);
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

/** What changed since the form opened, as the save's partial input (the rest left as it is). */
function changes(form: Form, start: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ['address', 'landmark', 'pickupHours', 'tin', 'whatsappNumber'] as const) {
    if (form[name] !== start[name]) out[name] = blankToNull(form[name]);
  }
  if (form.latitude !== start.latitude || form.longitude !== start.longitude) {
    out.latitude = numberOrNull(form.latitude);
    out.longitude = numberOrNull(form.longitude);
  }
  if (JSON.stringify(weekOf(form.hours)) !== JSON.stringify(weekOf(start.hours))) {
    out.hours = weekOf(form.hours);
  }
  if (form.socialLinks !== start.socialLinks) {
    const links = form.socialLinks
      .split(/\s+/)
      .map((link) => link.trim())
      .filter(Boolean);
    out.socialLinks = links.length > 0 ? links : null;
  }
  return out;
}

function DetailsForm({ loaded }: { loaded: Loaded }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [start, setStart] = useState<Form>(() => initialForm(loaded));
  const [form, setForm] = useState<Form>(start);
  // A save's key: made when the form opens, kept for retries, renewed after a save.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(
    trpc.desk.saveStoreDetails.mutationOptions({
      onSuccess: async () => {
        setProblem(null);
        setRequestKey(crypto.randomUUID());
        setStart(form);
        toast.success(TEXT.saved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.storeDetails.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.contact.channels.queryKey() });
      },
      onError: (error) => {
        const text = errorMessage(error, 'The shop details could not be saved. Try again.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );

  const set = (name: Exclude<keyof Form, 'hours'>) => (event: { target: { value: string } }) =>
    setForm((now) => ({ ...now, [name]: event.target.value }));
  const setDay = (day: Day, change: Partial<DayForm>) =>
    setForm((now) => ({
      ...now,
      hours: { ...now.hours, [day]: { ...now.hours[day], ...change } },
    }));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const changed = changes(form, start);
    if (Object.keys(changed).length === 0) {
      setProblem(null);
      toast.success(TEXT.nothingChanged);
      return;
    }
    const payload = { requestKey, ...changed };
    const checked = v.safeParse(saveStoreDetailsInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload as SaveStoreDetailsInput);
  }

  const { details, sources } = loaded;
  const from = (name: keyof Loaded['sources'], shown: string) =>
    sources[name] === 'desk'
      ? 'Set here. Leave blank for the default.'
      : `Blank: ${shown}, from the shop’s configuration.`;
  const lat = numberOrNull(form.latitude);
  const lng = numberOrNull(form.longitude);
  const pinShown = lat !== null && lng !== null && Number.isFinite(lat) && Number.isFinite(lng);

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-8 max-w-2xl space-y-10"
      data-testid="store-details-form"
    >
      {problem && (
        <Notice tone="error">
          <span data-testid="store-details-problem">{problem}</span>
        </Notice>
      )}
      <FormGroup
        title="The boutique"
        intro="Shown on the contact page, the footer and at checkout."
      >
        <Field
          label="Address"
          name="address"
          autoComplete="off"
          maxLength={ADDRESS_MAX}
          value={form.address}
          onChange={set('address')}
          placeholder={details.address}
          note={from('address', details.address)}
        />
        <Field
          label="Landmark"
          name="landmark"
          autoComplete="off"
          maxLength={LANDMARK_MAX}
          value={form.landmark}
          onChange={set('landmark')}
          placeholder="e.g. opposite the post office"
          note={sources.landmark === 'desk' ? 'Set here. Leave blank for none.' : 'Blank: none.'}
        />
        <fieldset>
          <legend className="text-xs font-semibold uppercase tracking-[0.16em]">Map pin</legend>
          <p className="mt-1 text-xs text-ink-soft">
            From Google Maps: press and hold the shop, then copy the two numbers. Blank: no pin.
          </p>
          <div className="mt-2 grid grid-cols-2 gap-3">
            <Field
              label="Latitude"
              name="latitude"
              inputMode="decimal"
              autoComplete="off"
              className="min-w-0"
              value={form.latitude}
              onChange={set('latitude')}
              placeholder="0.313611"
            />
            <Field
              label="Longitude"
              name="longitude"
              inputMode="decimal"
              autoComplete="off"
              className="min-w-0"
              value={form.longitude}
              onChange={set('longitude')}
              placeholder="32.581111"
            />
          </div>
          {pinShown && (
            <a
              href={mapLink(lat, lng)}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-2 inline-flex min-h-11 items-center gap-2 text-sm font-medium underline underline-offset-4 hover:text-accent"
              data-testid="store-details-map"
            >
              {TEXT.viewOnMap}
              <ExternalLink aria-hidden className="size-4" />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          )}
        </fieldset>
      </FormGroup>

      <FormGroup
        title="Opening hours"
        intro={
          sources.hours === 'desk'
            ? 'Set here: the contact page, the footer, the assistant and search engines show them.'
            : 'Today’s hours, from the shop’s configuration, until you change them.'
        }
      >
        <ul className="divide-y divide-line border-y border-line" data-testid="store-details-hours">
          {DAYS.map((day) => (
            <DayRow
              key={day}
              day={day}
              value={form.hours[day]}
              onChange={(change) => setDay(day, change)}
            />
          ))}
        </ul>
      </FormGroup>

      <FormGroup
        title="Pickup"
        intro="The pickup option at checkout and the “ready for pickup” text."
      >
        <Field
          label="Pickup hours"
          name="pickupHours"
          autoComplete="off"
          maxLength={PICKUP_HOURS_MAX}
          value={form.pickupHours}
          onChange={set('pickupHours')}
          placeholder={details.pickupHours}
          note={from('pickupHours', `“${details.pickupHours}”`)}
        />
      </FormGroup>

      <FormGroup
        title="WhatsApp"
        intro={
          loaded.whatsappConfigured
            ? 'Shoppers see “Ask on WhatsApp” on every piece and order once the number is set.'
            : 'WhatsApp is not set up for this shop yet: shoppers see nothing of it until it is. You can set the number now.'
        }
      >
        <Field
          label="WhatsApp number"
          name="whatsappNumber"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          maxLength={32}
          value={form.whatsappNumber}
          onChange={set('whatsappNumber')}
          placeholder="0772 123 456"
          note={`${TEXT.whatsappHint} Blank: none.`}
        />
      </FormGroup>

      <FormGroup title="Social and tax">
        <TextArea
          label="Social links"
          name="socialLinks"
          value={form.socialLinks}
          onChange={set('socialLinks')}
          placeholder="https://www.instagram.com/duuka.ug"
          note={
            sources.socialLinks === 'desk'
              ? 'One https link a line: Instagram, Facebook, X or TikTok. Blank: the configuration’s.'
              : details.socialLinks.length > 0
                ? `Blank: the configuration’s ${details.socialLinks.map((l) => l.network).join(', ')}.`
                : 'One https link a line: Instagram, Facebook, X or TikTok. Blank: none.'
          }
        />
        <Field
          label="TIN"
          name="tin"
          inputMode="numeric"
          autoComplete="off"
          maxLength={16}
          value={form.tin}
          onChange={set('tin')}
          placeholder="1000123456"
          note="The shop’s 10-digit URA TIN, printed on receipts. Blank: none."
        />
      </FormGroup>

      <SaveButton pending={save.isPending} className="w-full sm:w-auto">
        Save shop details
      </SaveButton>
    </form>
  );
}

/** One day of the week: its opening and closing times, or Closed. */
function DayRow({
  day,
  value,
  onChange,
}: {
  day: Day;
  value: DayForm;
  onChange: (change: Partial<DayForm>) => void;
}) {
  const id = useId();
  const name = DAY_LABELS[day].long;
  const time =
    'block w-full min-w-0 border border-line bg-paper px-2 py-2.5 text-base text-ink tabular-nums focus:border-ink focus:outline-none';
  return (
    // On a phone: the day and its Closed switch on one line, the two times under them; wider,
    // one line each.
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 py-3 sm:grid-cols-[2.75rem_minmax(0,1fr)_auto]"
      data-testid={`store-details-day-${day}`}
    >
      <span className="order-1 text-sm font-semibold" title={name}>
        {DAY_LABELS[day].short}
      </span>
      {value.closed ? (
        <span className="order-3 hidden text-sm text-ink-soft sm:order-2 sm:block">
          {TEXT.closed}
        </span>
      ) : (
        <span className="order-3 col-span-2 grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-center gap-1.5 sm:order-2 sm:col-span-1">
          <input
            type="time"
            aria-label={`${name} opens`}
            className={time}
            value={value.open}
            onChange={(event) => onChange({ open: event.target.value })}
          />
          <span aria-hidden className="text-ink-soft">
            –
          </span>
          <input
            type="time"
            aria-label={`${name} closes`}
            className={time}
            value={value.close}
            onChange={(event) => onChange({ close: event.target.value })}
          />
        </span>
      )}
      <label
        htmlFor={id}
        className="order-2 flex min-h-11 items-center gap-2 justify-self-end text-sm sm:order-3"
      >
        <input
          id={id}
          type="checkbox"
          className="size-4 accent-ink"
          checked={value.closed}
          onChange={(event) => onChange({ closed: event.target.checked })}
          aria-label={`${name} closed`}
        />
        <span aria-hidden>{TEXT.closed}</span>
      </label>
    </li>
  );
}
