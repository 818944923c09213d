// Building blocks of the account screens: the editorial auth layout, fields, notices.
import { Eye, EyeOff } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';

/** Login and registration: a drawn still life beside the form on wide screens, the form alone on phones. */
export function AuthShell({
  eyebrow,
  title,
  intro,
  image,
  children,
}: {
  eyebrow: string;
  title: string;
  intro: string;
  image: string;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto grid max-w-6xl px-4 py-10 sm:px-6 md:py-16 lg:grid-cols-[1.05fr_1fr]">
      {/* A portrait still life drawn for this panel (art/generate.ts): its calm top holds the
          caption, its floor stays in frame. The art is light in both themes, so is its ink. */}
      <figure className="relative hidden min-h-[36rem] overflow-hidden border border-r-0 border-line bg-[#ead8c8] lg:block">
        <img
          src={image}
          alt=""
          width={1000}
          height={1250}
          className="absolute inset-0 size-full object-cover object-bottom"
        />
        <figcaption className="relative max-w-xs p-10 text-[#1d1a1c]">
          <p className="text-xs font-semibold uppercase tracking-[0.22em] text-[#6b4a2e]">
            duuka · Kampala
          </p>
          <p className="mt-3 font-display text-3xl leading-tight">
            Dressed for the city, made to be kept.
          </p>
        </figcaption>
      </figure>
      <div className="border border-line bg-paper px-6 py-10 sm:px-12 sm:py-14">
        <p className="eyebrow">{eyebrow}</p>
        <h1 className="mt-3 font-display text-4xl sm:text-5xl">{title}</h1>
        <p className="mt-3 text-ink-soft">{intro}</p>
        <div className="mt-8">{children}</div>
      </div>
    </section>
  );
}

export function PageHeading({
  eyebrow,
  title,
  intro,
}: {
  eyebrow: string;
  title: string;
  intro?: string;
}) {
  return (
    <header className="border-b border-line pb-6">
      <p className="eyebrow">{eyebrow}</p>
      <h1 className="mt-2 font-display text-4xl sm:text-5xl">{title}</h1>
      {intro && <p className="mt-2 text-ink-soft">{intro}</p>}
    </header>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  note?: string;
  /** What is wrong with the value, shown under the field and read with it. */
  error?: string;
};

export const inputClass =
  'mt-2 block w-full border border-line bg-paper px-4 py-3 text-base text-ink placeholder:text-ink-soft/70 focus:border-ink focus:outline-none disabled:cursor-not-allowed disabled:bg-paper-2 disabled:text-ink-soft';

export function Field({ label, note, error, id, className = '', ...input }: FieldProps) {
  const fallback = useId();
  const inputId = id ?? fallback;
  const noteId = `${inputId}-note`;
  const errorId = `${inputId}-error`;
  const described = [error ? errorId : '', note ? noteId : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={inputId} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {label}
      </label>
      <input
        id={inputId}
        aria-describedby={described || undefined}
        aria-invalid={error ? true : undefined}
        className={`${inputClass} ${error ? 'border-danger' : ''}`}
        {...input}
      />
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-danger">
          {error}
        </p>
      )}
      {note && (
        <p id={noteId} className="mt-1.5 text-xs text-ink-soft">
          {note}
        </p>
      )}
    </div>
  );
}

/** A password input with the show/hide control (spec: Login, Registration). */
export function PasswordField({ label, note, id, className = '', ...input }: FieldProps) {
  const fallback = useId();
  const inputId = id ?? fallback;
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={inputId} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {label}
      </label>
      <div className="relative">
        <input
          id={inputId}
          type={visible ? 'text' : 'password'}
          className={`${inputClass} pr-12`}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          className="absolute inset-y-0 right-0 grid w-12 place-items-center text-ink-soft hover:text-ink"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          aria-controls={inputId}
        >
          {visible ? <EyeOff size={18} aria-hidden /> : <Eye size={18} aria-hidden />}
        </button>
      </div>
      {note && <p className="mt-1.5 text-xs text-ink-soft">{note}</p>}
    </div>
  );
}

export function Notice({
  tone,
  children,
  role,
}: {
  tone: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
  role?: 'alert' | 'status';
}) {
  const tones = {
    error: 'border-danger/40 bg-danger/5 text-danger',
    success: 'border-success/40 bg-success/5 text-success',
    info: 'border-gold/50 bg-gold/5 text-ink',
    warning: 'border-gold/60 bg-gold/10 text-ink',
  } as const;
  return (
    <div
      role={role ?? (tone === 'error' ? 'alert' : 'status')}
      className={`border px-4 py-3 text-sm ${tones[tone]}`}
    >
      {children}
    </div>
  );
}

/** A quiet full-width loading line ("Loading profile..."). */
export function Loading({ text }: { text: string }) {
  return (
    <p role="status" className="py-24 text-center font-display text-2xl text-ink-soft">
      {text}
    </p>
  );
}
