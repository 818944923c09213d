import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { DeleteAccount } from '#app/components/account/DeleteAccount.tsx';
import { RequireSession } from '#app/components/account/RequireSession.tsx';
import { TwoFactor } from '#app/components/account/TwoFactor.tsx';
import { Field, inputClass, Loading, PageHeading } from '#app/components/account/ui.tsx';
import { VerifyWhatsApp } from '#app/components/account/VerifyWhatsApp.tsx';
import { useChannels } from '#app/components/SocialIcons.tsx';
import { privatePageHead, type SessionUser, withSession } from '#app/session.ts';
import {
  applyAppearance,
  markSettingsUnsynced,
  readCachedSettings,
  settingsUnsynced,
  writeCachedSettings,
} from '#app/settings-store.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import {
  MAX_NAME_LENGTH,
  SETTINGS_RETRY_DELAYS_MS,
  type SettingsInput,
  settingsInput,
  TEXT,
} from '#core/account.ts';
import {
  CURRENCIES,
  defaultSettings,
  LANGUAGES,
  type ShopperSettings,
  VISIBILITIES,
} from '#core/settings-rules.ts';

export const Route = createFileRoute('/settings')({
  head: privatePageHead('Settings'),
  // Signed in: the settings arrives with the page (a visitor's read fails quietly: Access Required).
  loader: async ({ context }) => {
    await withSession(context, () => [
      context.queryClient.prefetchQuery(context.trpc.account.settings.queryOptions()),
    ]);
  },
  component: () => <RequireSession>{(user) => <SettingsLoader user={user} />}</RequireSession>,
});

const sections = [
  { id: 'account', label: 'Account' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'preferences', label: 'Preferences' },
] as const;

function SettingsLoader({ user }: { user: SessionUser }) {
  const trpc = useTRPC();
  const saved = useQuery(trpc.account.settings.queryOptions(undefined, { retry: 1 }));
  const reported = useRef(false);
  useEffect(() => {
    if (saved.isError && !reported.current) {
      reported.current = true;
      toast.error(TEXT.settingsLoadFailed);
    }
  }, [saved.isError]);
  // The browser's copy is read after hydration (the server has none), so both render alike.
  const [cached, setCached] = useState<ShopperSettings | null | undefined>(undefined);
  useEffect(() => setCached(readCachedSettings()), []);
  if (saved.isPending || (!saved.data && cached === undefined)) {
    return <Loading text="Loading settings..." />;
  }
  const base = saved.data ?? cached ?? defaultSettings(user.name);
  const initial = {
    ...base,
    account: { ...base.account, displayName: base.account.displayName || user.name },
  };
  return <SettingsForm user={user} initial={initial} />;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const same = (a: ShopperSettings, b: ShopperSettings) => JSON.stringify(a) === JSON.stringify(b);

/** What is sent: the order updates' channel only where the shop offers WhatsApp (left out, the
 * stored one stays: a shop that no longer has WhatsApp never refuses the rest of a save). */
function sendable(settings: ShopperSettings, whatsapp: boolean): SettingsInput {
  if (whatsapp) return settings;
  const { channel: _, ...notifications } = settings.notifications;
  return { ...settings, notifications };
}

function SettingsForm({ user, initial }: { user: SessionUser; initial: ShopperSettings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const store = useMutation(trpc.account.saveSettings.mutationOptions({ retry: false }));
  const whatsapp = useChannels()?.whatsapp?.orderUpdates === true;

  // The saved appearance comes back when the screen is left with unsaved changes.
  useEffect(() => () => applyAppearance(readCachedSettings()?.appearance ?? null), []);

  // "Will retry when connection improves": an unsynced local copy is sent on the next visit and
  // whenever the browser comes back online.
  useEffect(() => {
    async function resync() {
      const local = readCachedSettings();
      if (!settingsUnsynced() || !local) return;
      try {
        const stored = await store.mutateAsync(sendable(local, whatsapp));
        markSettingsUnsynced(false);
        queryClient.setQueryData(trpc.account.settings.queryKey(), stored);
      } catch {
        // Still offline: the next 'online' event tries again.
      }
    }
    void resync();
    window.addEventListener('online', resync);
    return () => window.removeEventListener('online', resync);
  }, [store.mutateAsync, queryClient, trpc, whatsapp]);

  function change<S extends keyof ShopperSettings>(section: S, patch: Partial<ShopperSettings[S]>) {
    setSettings((current) => {
      const next = { ...current, [section]: { ...current[section], ...patch } };
      if (section === 'appearance') applyAppearance(next.appearance); // the whole site, at once
      return next;
    });
    setDirty(true);
  }

  function reset() {
    const defaults = defaultSettings(user.name);
    setSettings(defaults);
    applyAppearance(defaults.appearance);
    setDirty(true);
    toast.success(TEXT.settingsReset);
  }

  async function save() {
    // The server's own rules, checked before anything is kept: the same schema and messages.
    const checked = v.safeParse(settingsInput, settings);
    if (!checked.success) return toast.error(checked.issues[0].message);
    setSaving(true);
    const toSave = settings;
    writeCachedSettings(toSave);
    applyAppearance(toSave.appearance);
    setDirty(false);
    // Spec: up to 3 retries, 1 s, 2 s and 4 s apart; then the settings stay local with a warning.
    for (let attempt = 0; ; attempt++) {
      try {
        const stored = await store.mutateAsync(sendable(toSave, whatsapp));
        queryClient.setQueryData(trpc.account.settings.queryKey(), stored);
        markSettingsUnsynced(false);
        toast.success(TEXT.settingsSaved);
        break;
      } catch (error) {
        const delay = SETTINGS_RETRY_DELAYS_MS[attempt];
        const invalid = (error as { data?: { httpStatus?: number } })?.data?.httpStatus === 400;
        if (invalid) {
          toast.error(error instanceof Error ? error.message : TEXT.settingsLoadFailed);
          setDirty(true);
          break;
        }
        if (delay === undefined) {
          markSettingsUnsynced(true);
          toast.warning(TEXT.settingsSyncFailed);
          break;
        }
        await wait(delay);
      }
    }
    setSaving(false);
  }

  const unchanged = same(settings, initial) && !dirty;
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 pb-36 sm:px-6 md:py-14">
      <PageHeading
        eyebrow="Your account"
        title="Settings"
        intro="How duuka looks and talks to you."
      />
      <div className="mt-10 grid gap-10 lg:grid-cols-[13rem_1fr]">
        <nav aria-label="Settings sections" className="min-w-0 lg:sticky lg:top-24 lg:h-fit">
          {/* On a phone the four wrap onto two lines rather than scroll out of sight ("PR…"). */}
          <ul className="flex flex-wrap gap-x-5 gap-y-2 border-b border-line pb-3 text-sm font-semibold uppercase tracking-[0.14em] lg:flex-col lg:flex-nowrap lg:gap-4 lg:border-b-0 lg:border-l lg:pb-0 lg:pl-5">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="whitespace-nowrap text-ink-soft hover:text-accent">
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-8">
          <Section id="account" title="Account" intro="Your name on receipts and messages.">
            <Field
              label="Display name"
              name="displayName"
              maxLength={MAX_NAME_LENGTH}
              value={settings.account.displayName}
              onChange={(e) => change('account', { displayName: e.target.value })}
            />
            <TwoFactor />
            <Link
              to="/change-password"
              className="inline-block text-sm font-semibold text-accent underline-offset-4 hover:underline"
            >
              Change password
            </Link>
          </Section>
          <Section id="notifications" title="Notifications" intro="What we send you.">
            <Toggle
              label="Email notifications"
              hint="News about your account by email. Sign-in and password links always come."
              checked={settings.notifications.email}
              onChange={(email) => change('notifications', { email })}
            />
            <Toggle
              label="Order updates"
              hint="Texts when your order is confirmed, paid, shipped and delivered."
              checked={settings.notifications.orderUpdates}
              onChange={(orderUpdates) => change('notifications', { orderUpdates })}
            />
            {whatsapp && settings.notifications.orderUpdates && (
              <Choice
                label="Send them by"
                hint="With WhatsApp, updates come as WhatsApp messages, and by SMS when WhatsApp cannot deliver them."
                options={CHANNELS}
                value={settings.notifications.channel}
                onChange={(channel) => change('notifications', { channel })}
              />
            )}
            {whatsapp && <VerifyWhatsApp />}
            <Toggle
              label="Promotions"
              hint="New collections and private sales."
              checked={settings.notifications.promotions}
              onChange={(promotions) => change('notifications', { promotions })}
            />
          </Section>
          <Section id="privacy" title="Privacy" intro="Who sees what.">
            <Select
              label="Profile visibility"
              value={settings.privacy.profileVisibility}
              options={VISIBILITIES.map((o) => ({ value: o.value, label: o.label }))}
              onChange={(value) =>
                change('privacy', {
                  profileVisibility: value as ShopperSettings['privacy']['profileVisibility'],
                })
              }
            />
            <Toggle
              label="Data sharing"
              hint="We share no shopping data today; this keeps your choice should that change."
              checked={settings.privacy.dataSharing}
              onChange={(dataSharing) => change('privacy', { dataSharing })}
            />
            <Toggle
              label="Analytics"
              hint="We collect no usage statistics today; this keeps your choice should that change."
              checked={settings.privacy.analytics}
              onChange={(analytics) => change('privacy', { analytics })}
            />
          </Section>
          <Section id="preferences" title="Preferences" intro="Theme, language, currency and data.">
            <Choice
              label="Theme"
              hint="Dark mode: always, never, or as your device is set."
              options={THEMES}
              value={settings.appearance.darkMode}
              onChange={(darkMode) => change('appearance', { darkMode })}
            />
            <div className="grid gap-6 sm:grid-cols-2">
              <Select
                label="Language"
                value={settings.appearance.language}
                options={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
                onChange={(value) =>
                  change('appearance', {
                    language: value as ShopperSettings['appearance']['language'],
                  })
                }
              />
              <Select
                label="Currency"
                value={settings.appearance.currency}
                options={CURRENCIES.map((c) => ({ value: c, label: c }))}
                onChange={(value) =>
                  change('appearance', {
                    currency: value as ShopperSettings['appearance']['currency'],
                  })
                }
              />
            </div>
            <p className="text-sm text-ink-soft">
              duuka is written in English for now: the language you choose is kept for when the shop
              is translated. With USD, EUR or GBP, prices show an approximate amount in that
              currency beside UGX; the cart, checkout, receipts and payments are always in UGX.
            </p>
            <Toggle
              label="Use less data"
              hint="Smaller pictures and no moving slides. Good on a data bundle."
              checked={settings.appearance.lessData}
              onChange={(lessData) => change('appearance', { lessData })}
            />
          </Section>
          <DeleteAccount />
        </div>
      </div>
      {(dirty || saving) && !unchanged && (
        <section
          aria-label="Unsaved changes"
          className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-paper/95 shadow-[0_-8px_30px_rgba(0,0,0,0.08)] backdrop-blur"
        >
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
            <p className="text-sm font-semibold">You have unsaved changes</p>
            <div className="flex gap-3">
              <button type="button" className="btn btn-outline" onClick={reset} disabled={saving}>
                Reset
              </button>
              <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
                {saving ? 'Saving...' : 'Save Changes'}
              </button>
            </div>
          </div>
        </section>
      )}
    </section>
  );
}

function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 border border-line p-6 sm:p-8"
    >
      <h2 id={`${id}-title`} className="font-display text-3xl">
        {title}
      </h2>
      <p className="mt-1 text-sm text-ink-soft">{intro}</p>
      <div className="mt-6 space-y-6">{children}</div>
    </section>
  );
}

/** Dark mode as it really is: following the device (System), or always Light or Dark. */
const THEMES: readonly Option<boolean | null>[] = [
  { label: 'System', value: null, hint: 'Follows your device' },
  { label: 'Light', value: false, hint: 'Ivory and ink' },
  { label: 'Dark', value: true, hint: 'For evening browsing' },
];

/** How order updates come (issue 37): offered only where the shop has WhatsApp. */
const CHANNELS: readonly Option<ShopperSettings['notifications']['channel']>[] = [
  { label: 'SMS', value: 'sms', hint: 'Texts to your phone' },
  { label: 'WhatsApp', value: 'whatsapp', hint: 'Messages on WhatsApp' },
];

type Option<T> = { label: string; value: T; hint: string };

/** One of a few, side by side (a radio group): the theme, the order updates' channel. */
function Choice<T>({
  label,
  hint,
  options,
  value,
  onChange,
}: {
  label: string;
  hint: string;
  options: readonly Option<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div role="radiogroup" aria-labelledby={id}>
      <p id={id} className="font-semibold">
        {label}
      </p>
      <p className="text-sm text-ink-soft">{hint}</p>
      <div
        className={`mt-3 grid border border-line ${options.length === 2 ? 'grid-cols-2' : 'grid-cols-3'}`}
      >
        {options.map((option) => {
          const checked = value === option.value;
          return (
            <label
              key={option.label}
              className={`flex cursor-pointer flex-col items-center gap-0.5 px-2 py-3 text-center transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent [&+&]:border-l [&+&]:border-line ${
                checked ? 'bg-ink text-paper' : 'hover:bg-paper-2'
              }`}
            >
              <input
                type="radio"
                name={id}
                className="sr-only"
                checked={checked}
                onChange={() => onChange(option.value)}
              />
              <span className="text-sm font-semibold">{option.label}</span>
              <span className={`text-xs ${checked ? 'text-paper/75' : 'text-ink-soft'}`}>
                {option.hint}
              </span>
            </label>
          );
        })}
      </div>
    </div>
  );
}

function Toggle({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-6">
      <div>
        <p id={id} className="font-semibold">
          {label}
        </p>
        <p className="text-sm text-ink-soft">{hint}</p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={id}
        onClick={() => onChange(!checked)}
        className={`relative h-7 w-12 shrink-0 rounded-full border transition-colors ${checked ? 'border-accent bg-accent' : 'border-line bg-paper-2'}`}
      >
        <span
          aria-hidden
          className={`absolute top-0.5 left-0 size-5.5 rounded-full shadow transition-transform ${checked ? 'translate-x-5.5 bg-accent-ink' : 'translate-x-0.5 bg-ink-soft/60'}`}
        />
      </button>
    </div>
  );
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
