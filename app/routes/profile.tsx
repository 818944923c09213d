import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Camera } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import * as v from 'valibot';
import { DeleteAccount } from '#app/components/account/DeleteAccount.tsx';
import { RequireSession } from '#app/components/account/RequireSession.tsx';
import { StoreCredit } from '#app/components/account/StoreCredit.tsx';
import { Field, inputClass, Loading, Notice, PageHeading } from '#app/components/account/ui.tsx';
import { privatePageHead, type SessionUser, withSession } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import {
  AVATAR_ACCEPT,
  avatarProblem,
  MAX_NAME_LENGTH,
  profileInput,
  TEXT,
} from '#core/account.ts';

export const Route = createFileRoute('/profile')({
  head: privatePageHead('My Profile'),
  // Signed in: the profile and the store credit arrive with the page (a visitor's read fails
  // quietly: Access Required).
  loader: async ({ context }) => {
    await withSession(context, () => [
      context.queryClient.prefetchQuery(context.trpc.account.profile.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.account.credit.queryOptions()),
    ]);
  },
  component: () => <RequireSession>{(user) => <ProfileScreen user={user} />}</RequireSession>,
});

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Africa/Kampala',
});

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

function ProfileScreen({ user }: { user: SessionUser }) {
  const trpc = useTRPC();
  const profile = useQuery(trpc.account.profile.queryOptions());
  if (profile.isPending) return <Loading text="Loading profile..." />;
  if (profile.isError)
    return (
      <section className="mx-auto max-w-3xl px-6 py-16">
        <Notice tone="error">{profile.error.message}</Notice>
      </section>
    );
  return <ProfileForm user={user} profile={profile.data} />;
}

type Profile = ApiOutput['account']['profile'];

type Message = { tone: 'error' | 'success'; text: string } | null;

/** The form's fields, as profileInput names them. */
type Details = { fullName: string; phone: string; address: string };
type DetailField = keyof Details;
const DETAIL_FIELDS: DetailField[] = ['fullName', 'phone', 'address'];

/**
 * What the shopper has typed, read from the form itself. The fields are not React state: a number
 * typed into the server-rendered page before its scripts ran stayed in the field while the state
 * React hydrated with was still the saved one (empty), so Save sent an empty phone, the server
 * stored none and "Profile updated successfully!" showed over an emptied field (issue 32).
 */
function typedDetails(form: HTMLFormElement): Details {
  const data = new FormData(form);
  const text = (name: DetailField) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return { fullName: text('fullName'), phone: text('phone'), address: text('address') };
}

function ProfileForm({ user, profile }: { user: SessionUser; profile: Profile }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [message, setMessage] = useState<Message>(null);
  // A problem with one field is shown at that field (issue 32), not in the banner.
  const [problems, setProblems] = useState<Partial<Record<DetailField, string>>>({});
  const [avatarMessage, setAvatarMessage] = useState<Message>(null);
  const [uploading, setUploading] = useState(false);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.account.profile.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.account.session.queryKey() }),
    ]);

  const save = useMutation(
    trpc.account.updateProfile.mutationOptions({
      onSuccess: (saved, sent) => {
        // Each field still holding what was sent shows it as saved (the phone as +256…); one
        // typed into while the save was on its way keeps what was typed.
        const stored: Details = {
          fullName: saved.full_name,
          phone: saved.phone ?? '',
          address: saved.address ?? '',
        };
        for (const name of DETAIL_FIELDS) {
          const field = form.current?.elements.namedItem(name);
          if (
            (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) &&
            field.value === sent[name]
          ) {
            field.value = stored[name];
          }
        }
        setMessage({ tone: 'success', text: TEXT.profileSaved });
        toast.success(TEXT.profileSaved);
        // The saved profile is the answer: kept as it is, not fetched again. The account's
        // name follows the profile's (header, side menu).
        queryClient.setQueryData(trpc.account.profile.queryKey(), saved);
        queryClient.setQueryData(
          trpc.account.session.queryKey(),
          (session) => session && { ...session, name: saved.full_name },
        );
      },
      onError: (error) => {
        const text = error.message || 'An unknown error occurred';
        setMessage({ tone: 'error', text });
        toast.error(text);
      },
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    const details = typedDetails(event.currentTarget);
    // The server's own rules, checked before sending: the same schema, the same messages, each
    // at its field; the first field with a problem takes the focus.
    const checked = v.safeParse(profileInput, details);
    if (!checked.success) {
      const found: Partial<Record<DetailField, string>> = {};
      for (const issue of checked.issues) {
        const key = issue.path?.[0]?.key;
        const name = DETAIL_FIELDS.find((field) => field === key);
        if (name && !found[name]) found[name] = issue.message;
      }
      if (Object.keys(found).length === 0) {
        setMessage({ tone: 'error', text: checked.issues[0].message });
      }
      setProblems(found);
      const first = DETAIL_FIELDS.find((name) => found[name]);
      const field = first && event.currentTarget.elements.namedItem(first);
      if (field instanceof HTMLElement) field.focus();
      return;
    }
    setProblems({});
    save.mutate(details);
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setAvatarMessage(null);
    const problem = avatarProblem(file);
    if (problem) {
      setAvatarMessage({ tone: 'error', text: problem });
      toast.error(problem);
      return;
    }
    setUploading(true);
    try {
      const response = await fetch('/api/account/avatar', {
        method: 'POST',
        headers: { 'content-type': file.type },
        body: file,
      });
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
      setAvatarMessage({ tone: 'success', text: TEXT.avatarSaved });
      toast.success(TEXT.avatarSaved);
      await refresh();
    } catch (error) {
      const text = TEXT.avatarFailed(error instanceof Error ? error.message : 'Unknown error');
      setAvatarMessage({ tone: 'error', text });
      toast.error(text);
    } finally {
      setUploading(false);
    }
  }

  const avatar = profile.avatar_url;
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 md:py-14">
      <PageHeading eyebrow="Your account" title="My Profile" />
      <div className="mt-10 grid gap-8 lg:grid-cols-[22rem_1fr]">
        <aside
          className="h-fit border border-line bg-paper-2/60 p-7 text-center"
          data-testid="avatar-card"
        >
          <div className="relative mx-auto size-32">
            {avatar ? (
              <img
                src={avatar}
                alt={`${user.name}'s profile`}
                className="size-32 rounded-full border border-line object-cover"
              />
            ) : (
              <div
                aria-hidden
                className="grid size-32 place-items-center rounded-full border border-gold/50 bg-paper font-display text-5xl text-gold"
              >
                {initials(user.name) || 'U'}
              </div>
            )}
            <label
              className="absolute right-0 bottom-0 grid size-10 cursor-pointer place-items-center rounded-full bg-ink text-paper shadow-md hover:bg-accent focus-within:outline-2 focus-within:outline-accent"
              title="Change profile picture"
            >
              <Camera size={18} aria-hidden />
              <span className="sr-only">Change profile picture</span>
              <input
                type="file"
                accept={AVATAR_ACCEPT}
                className="sr-only"
                onChange={upload}
                disabled={uploading}
                data-testid="avatar-input"
              />
            </label>
          </div>
          {uploading && <p className="mt-3 text-sm text-ink-soft">Uploading...</p>}
          <h2 className="mt-5 font-display text-3xl">{user.name}</h2>
          <p className="mt-1 break-all text-sm text-ink-soft">{profile.email}</p>
          <dl className="mt-6 grid grid-cols-2 gap-4 border-t border-line pt-5 text-left text-sm">
            <div>
              <dt className="eyebrow">Joined</dt>
              <dd className="mt-1">{dateFormat.format(new Date(profile.created_at))}</dd>
            </div>
            <div>
              <dt className="eyebrow">Updated</dt>
              <dd className="mt-1">{dateFormat.format(new Date(profile.updated_at))}</dd>
            </div>
          </dl>
          <p className="mt-5 text-xs text-ink-soft">JPEG, PNG, GIF or WebP, under 2MB.</p>
          {avatarMessage && (
            <div className="mt-4 text-left">
              <Notice tone={avatarMessage.tone}>{avatarMessage.text}</Notice>
            </div>
          )}
        </aside>

        <div className="min-w-0 space-y-8">
          <form
            ref={form}
            onSubmit={submit}
            className="space-y-6 border border-line p-6 sm:p-8"
            noValidate
          >
            <h2 className="font-display text-2xl">Personal details</h2>
            {message && <Notice tone={message.tone}>{message.text}</Notice>}
            <div className="grid gap-6 sm:grid-cols-2">
              <Field
                label="Full name"
                name="fullName"
                autoComplete="name"
                required
                maxLength={MAX_NAME_LENGTH}
                defaultValue={profile.full_name}
                error={problems.fullName}
              />
              <Field
                label="Email"
                type="email"
                name="email"
                value={profile.email}
                readOnly
                disabled
                note={TEXT.emailReadOnly}
              />
              <Field
                label="Phone"
                type="tel"
                name="phone"
                autoComplete="tel"
                placeholder="+256 7XX XXX XXX"
                defaultValue={profile.phone ?? ''}
                error={problems.phone}
                note="We text you about your orders. Numbers are saved as +256..."
              />
              <div className="sm:col-span-2">
                <label
                  htmlFor="profile-address"
                  className="text-xs font-semibold uppercase tracking-[0.16em]"
                >
                  Delivery address
                </label>
                <textarea
                  id="profile-address"
                  name="address"
                  rows={3}
                  maxLength={500}
                  autoComplete="street-address"
                  placeholder="Street, city, country"
                  className={`${inputClass} ${problems.address ? 'border-danger' : ''}`}
                  defaultValue={profile.address ?? ''}
                  aria-invalid={problems.address ? true : undefined}
                  aria-describedby={problems.address ? 'profile-address-error' : undefined}
                />
                {problems.address && (
                  <p id="profile-address-error" className="mt-1.5 text-sm text-danger">
                    {problems.address}
                  </p>
                )}
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-4">
              <button type="submit" className="btn btn-primary" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save Profile'}
              </button>
              <Link
                to="/change-password"
                className="text-sm font-semibold text-accent underline-offset-4 hover:underline"
              >
                Change password
              </Link>
            </div>
          </form>
          <StoreCredit />
          <DeleteAccount />
        </div>
      </div>
    </section>
  );
}
