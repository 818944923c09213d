import { useMutation } from '@tanstack/react-query';
import { createFileRoute, useHydrated } from '@tanstack/react-router';
import { CheckCircle2, Clock, Mail, MapPin, MessageCircle, Phone } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import * as v from 'valibot';
import {
  SocialLinkList,
  useSocialLinks,
  useStoreDetails,
  useSupportLinks,
} from '#app/components/SocialIcons.tsx';
import { errorMessage, UNEXPECTED } from '#app/error-message.ts';
import { pageHead } from '#app/seo.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import {
  COMMENT_MAX,
  type ContactField,
  contactFieldOf,
  contactInput,
  EMAIL_MAX,
  NAME_MAX,
  PHONE_MAX,
  TEXT,
} from '#core/contact-rules.ts';

export const Route = createFileRoute('/contact')({
  head: () =>
    pageHead({
      title: 'Contact',
      description:
        'Call, WhatsApp or email duuka in Kampala — +256 759 301 488, hello@duuka.ug — or send us a message, or visit the boutique.',
      path: '/contact',
    }),
  component: Contact,
});

function Contact() {
  return (
    <>
      {/* The words on the left, the atelier's rail on the right, edge to edge (below on a phone). */}
      <section aria-labelledby="contact-heading" className="grid bg-paper-2 lg:grid-cols-2">
        <div className="flex items-center px-5 py-16 sm:px-6 md:py-20 lg:pl-[max(1.5rem,calc(50vw-38.5rem))]">
          <div>
            <p className="eyebrow text-accent">Contact</p>
            <h1
              id="contact-heading"
              className="mt-4 font-display text-5xl leading-[0.95] font-medium sm:text-7xl"
            >
              Let’s talk
            </h1>
            <p className="mt-5 max-w-xl text-ink-soft">
              Questions about a size, an order or a made-to-measure piece? Call or message us, or
              write below — a real person in Kampala answers, usually the same day.
            </p>
          </div>
        </div>
        <img
          src="/images/hero/limited-edition.svg"
          alt=""
          width={1600}
          height={900}
          className="aspect-[16/9] w-full object-cover object-right lg:aspect-[4/3]"
        />
      </section>

      <div className="mx-auto grid max-w-7xl gap-14 px-5 py-16 sm:px-6 md:py-20 lg:grid-cols-[1fr_1.25fr] lg:gap-20">
        <ContactDetails />
        <ContactForm />
      </div>
    </>
  );
}

function ContactDetails() {
  const support = useSupportLinks();
  const store = useStoreDetails();
  return (
    <section aria-labelledby="reach-heading">
      <h2 id="reach-heading" className="font-display text-3xl font-medium sm:text-4xl">
        Reach us directly
      </h2>
      <ul className="mt-8 divide-y divide-line border-y border-line">
        <Detail Icon={Phone} label="Phone">
          <a href={support.phoneHref} className="hover:text-accent hover:underline">
            {support.phone}
          </a>
        </Detail>
        <Detail Icon={MessageCircle} label="WhatsApp & SMS">
          <a
            href={support.whatsappHref}
            className="hover:text-accent hover:underline"
            rel="noopener noreferrer"
            target="_blank"
          >
            Message {support.phone}
            <span className="sr-only"> on WhatsApp (opens in a new tab)</span>
          </a>
        </Detail>
        <Detail Icon={Mail} label="Email">
          <a href={support.emailHref} className="hover:text-accent hover:underline">
            {support.email}
          </a>
        </Detail>
        <Detail Icon={MapPin} label="Studio">
          <span className="block" data-testid="contact-address">
            {store?.address ?? 'Kampala, Uganda'}
          </span>
          {store?.landmark && (
            <span className="block text-base text-ink-soft" data-testid="contact-landmark">
              {store.landmark}
            </span>
          )}
          {store?.mapUrl && (
            <a
              href={store.mapUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-1 inline-flex min-h-11 items-center text-base underline underline-offset-4 hover:text-accent"
              data-testid="contact-map"
            >
              View on map<span className="sr-only"> (opens in a new tab)</span>
            </a>
          )}
        </Detail>
        {store && (
          <Detail Icon={Clock} label="Opening hours">
            <dl
              className="grid grid-cols-[3.5rem_1fr] gap-x-3 text-base"
              data-testid="contact-hours"
            >
              {store.days.map(({ day, label, time }) => (
                <div key={day} className="contents" data-day={day}>
                  <dt className="text-ink-soft">{label}</dt>
                  <dd>{time}</dd>
                </div>
              ))}
            </dl>
          </Detail>
        )}
      </ul>

      <SocialPages />
    </section>
  );
}

/** The shop's social pages as pills with their names; none configured, nothing at all. */
function SocialPages() {
  const links = useSocialLinks();
  if (links.length === 0) return null;
  return (
    <>
      <h3 className="mt-10 text-sm font-semibold">Social media</h3>
      <SocialLinkList
        links={links}
        named
        linkClassName="inline-flex min-h-11 items-center gap-2 rounded-full border border-line px-4 text-sm hover:border-ink hover:text-accent"
      />
    </>
  );
}

function Detail({
  Icon,
  label,
  children,
}: {
  Icon: typeof Phone;
  label: string;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-4 py-5">
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-accent" strokeWidth={1.5} />
      <div>
        <p className="eyebrow text-accent">{label}</p>
        <div className="mt-1.5 text-lg">{children}</div>
      </div>
    </li>
  );
}

const inputClass =
  'mt-2 block w-full border border-line bg-paper px-4 text-base text-ink placeholder:text-ink-soft/70 focus:border-ink focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent aria-invalid:border-danger';

function ContactForm() {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const send = useMutation(trpc.contact.send.mutationOptions());
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<{ field: ContactField | null; text: string } | null>(null);
  const [commentLength, setCommentLength] = useState(0);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (key: ContactField) => String(data.get(key) ?? '');
    const message = {
      name: text('name'),
      email: text('email'),
      phone: text('phone'),
      comment: text('comment'),
    };
    setSent(null);
    setError(null);
    const refused = (field: ContactField | null, reason: string) => {
      setError({ field, text: reason });
      toast.error(reason);
      if (field) form.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
    };
    // The server's own rules, checked before sending: the same schema, the same messages.
    const checked = v.safeParse(contactInput, message);
    if (!checked.success) {
      const [issue] = checked.issues;
      const reason = issue.message;
      return refused(contactFieldOf(reason), reason);
    }
    send.mutate(message, {
      onSuccess: () => {
        const firstName = checked.output.name?.split(/\s+/)[0] ?? '';
        setSent(TEXT.sent(firstName, checked.output.email));
        toast.success(TEXT.sentToast);
        form.reset();
        setCommentLength(0);
      },
      onError: (failure) => {
        const reason = errorMessage(failure, UNEXPECTED);
        refused(contactFieldOf(reason), reason);
      },
    });
  }

  const errorFor = (field: ContactField) =>
    error?.field === field ? (
      <p id={`contact-${field}-error`} className="mt-2 text-sm font-medium text-danger">
        {error.text}
      </p>
    ) : null;
  const invalid = (field: ContactField) =>
    error?.field === field
      ? { 'aria-invalid': true as const, 'aria-describedby': `contact-${field}-error` }
      : {};

  return (
    <section
      aria-labelledby="form-heading"
      className="border border-line bg-paper-2/60 p-6 sm:p-10"
    >
      <h2 id="form-heading" className="font-display text-3xl font-medium sm:text-4xl">
        Send us a message
      </h2>
      <p className="mt-2 text-sm text-ink-soft">
        Fields marked <span aria-hidden>*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>

      <form onSubmit={onSubmit} className="mt-8 space-y-6" aria-label="Contact form">
        <div className="grid gap-6 sm:grid-cols-2">
          <div>
            <label htmlFor="contact-name" className="text-sm font-medium">
              Name
            </label>
            <input
              id="contact-name"
              name="name"
              autoComplete="name"
              maxLength={NAME_MAX}
              className={`${inputClass} min-h-12`}
              {...invalid('name')}
            />
            {errorFor('name')}
          </div>
          <div>
            <label htmlFor="contact-phone" className="text-sm font-medium">
              Phone
            </label>
            <input
              id="contact-phone"
              name="phone"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              maxLength={PHONE_MAX}
              placeholder="0772 123 456"
              className={`${inputClass} min-h-12`}
              {...invalid('phone')}
            />
            {errorFor('phone')}
          </div>
        </div>
        <div>
          <label htmlFor="contact-email" className="text-sm font-medium">
            Email <span aria-hidden>*</span>
          </label>
          <input
            id="contact-email"
            name="email"
            type="email"
            required
            autoComplete="email"
            maxLength={EMAIL_MAX}
            placeholder="you@example.com"
            className={`${inputClass} min-h-12`}
            {...invalid('email')}
          />
          {errorFor('email')}
        </div>
        <div>
          <label htmlFor="contact-comment" className="text-sm font-medium">
            Message
          </label>
          <textarea
            id="contact-comment"
            name="comment"
            rows={6}
            maxLength={COMMENT_MAX}
            onInput={(event) => setCommentLength(event.currentTarget.value.length)}
            className={`${inputClass} resize-y py-3`}
            {...invalid('comment')}
          />
          <p className="mt-1 text-right text-xs text-ink-soft" aria-live="off">
            {commentLength.toLocaleString('en-UG')} / {COMMENT_MAX.toLocaleString('en-UG')}
          </p>
          {errorFor('comment')}
        </div>

        {error && !error.field && (
          <p role="alert" className="border-l-2 border-danger pl-3 text-sm font-medium text-danger">
            {error.text}
          </p>
        )}
        {error?.field && (
          <p role="alert" className="sr-only">
            {error.text}
          </p>
        )}

        <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
          <button
            type="submit"
            className="btn btn-primary w-full sm:w-auto"
            disabled={!hydrated || send.isPending}
          >
            {send.isPending ? TEXT.sending : 'Send message'}
          </button>
        </div>
        <div role="status" aria-live="polite">
          {sent && (
            <p className="flex items-start gap-3 border border-success/40 bg-paper p-4 text-sm text-success">
              <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0" />
              <span>{sent}</span>
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
