// The staff's WhatsApp inbox (/desk/inbox, issue 37; /operator/inbox redirects here): the threads
// (name or number, last message, time, unread), a thread as chat bubbles (the shopper's on the
// left, the shop's on the right with who sent it and what became of it), the reply box (shut with
// the reason outside the 24-hour window or after STOP, else saying until when it is open), the
// tools that send a piece's card or a cart link, and beside the thread (below it on a phone) the
// shopper's account, cart and orders. A phone shows the list, or one thread with a way back.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import {
  AlertCircle,
  ArrowLeft,
  Check,
  CheckCheck,
  Clock,
  ImageIcon,
  MessageCircle,
  Phone,
  UserRound,
} from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { InboxAssistant } from '#app/components/desk/InboxAssistant.tsx';
import { InboxShopper } from '#app/components/desk/InboxShopper.tsx';
import { InboxTools } from '#app/components/desk/InboxTools.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { telLink } from '#core/desk-customers.ts';
import { DESK_INBOX_TEXT, inboxTime, UNREAD_CAP } from '#core/desk-inbox.ts';
import { WHATSAPP_TEXT, WHATSAPP_TEXT_MAX } from '#core/whatsapp.ts';

const T = DESK_INBOX_TEXT;

export const Route = createFileRoute('/desk/inbox')({
  validateSearch: (search: Record<string, unknown>): { phone?: string } =>
    typeof search.phone === 'string' && search.phone.length <= 32 ? { phone: search.phone } : {},
  head: privatePageHead('Inbox · Desk'),
  component: Inbox,
});

type Threads = ApiOutput['desk']['inbox']['threads'];
type Thread = ApiOutput['desk']['thread'];
type Message = Thread['messages'][number];

/** New messages and their statuses arrive by the webhook: the page looks again this often. */
const LIST_EVERY_MS = 10_000;
const THREAD_EVERY_MS = 4_000;

function Inbox() {
  const trpc = useTRPC();
  const { phone } = Route.useSearch();
  const role = useQuery(trpc.desk.role.queryOptions());
  const threads = useQuery({
    ...trpc.desk.inbox.queryOptions(),
    refetchInterval: LIST_EVERY_MS,
    enabled: role.data?.whatsapp === true,
  });
  if (role.data && !role.data.whatsapp) {
    return (
      <DeskPage title={T.title}>
        <div className="mt-8 max-w-xl">
          <Notice tone="info">{WHATSAPP_TEXT.notConfigured}</Notice>
        </div>
      </DeskPage>
    );
  }
  return (
    <DeskPage title={T.title} headingOnPhone={!phone}>
      <p className={`mt-4 hidden text-sm text-ink-soft ${phone ? 'lg:block' : 'sm:block'}`}>
        {T.intro}
      </p>
      <div
        className={`mt-6 lg:grid lg:grid-cols-[17rem_minmax(0,1fr)_16rem] lg:items-start lg:gap-6 xl:grid-cols-[19rem_minmax(0,1fr)_18rem] ${phone ? 'max-lg:-mt-4' : ''}`}
      >
        <div className={phone ? 'hidden lg:sticky lg:top-20 lg:block' : 'lg:sticky lg:top-20'}>
          {threads.isError ? (
            <Notice tone="error">
              {errorMessage(threads.error, 'The inbox could not be loaded.')}
            </Notice>
          ) : !threads.data ? (
            <Loading text="Loading the inbox..." />
          ) : (
            <ThreadList threads={threads.data.threads} current={phone} />
          )}
          <InboxAssistant />
        </div>
        {phone ? (
          <ThreadView key={phone} phone={phone} />
        ) : (
          <p className="hidden border border-dashed border-line px-6 py-16 text-center text-ink-soft lg:col-span-2 lg:block">
            {T.pick}
          </p>
        )}
      </div>
    </DeskPage>
  );
}

/** A thread's title: the name WhatsApp gives, else the account's, else the number. */
const nameOf = (
  phone: string,
  name: string | null,
  customer: { name: string } | null | undefined,
) => name || customer?.name || phone;

function ThreadList({ threads, current }: { threads: Threads; current?: string }) {
  if (threads.length === 0) {
    return <p className="border border-line px-5 py-10 text-center text-ink-soft">{T.none}</p>;
  }
  return (
    <ul
      aria-label="Conversations"
      className="divide-y divide-line border-y border-line lg:max-h-[calc(100dvh-16rem)] lg:overflow-y-auto"
      data-testid="inbox-threads"
    >
      {threads.map((thread) => {
        const title = nameOf(thread.phone, thread.name, thread.customer);
        const mine = thread.lastMessage.direction === 'out';
        return (
          <li key={thread.phone}>
            <Link
              to="/desk/inbox"
              search={{ phone: thread.phone }}
              aria-current={thread.phone === current ? 'page' : undefined}
              className="flex min-h-18 items-start gap-3 px-3 py-3 hover:bg-paper-2 aria-[current=page]:bg-paper-2"
              data-testid="inbox-thread"
            >
              <Initials name={title} />
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span
                    className={`truncate ${thread.unread > 0 ? 'font-semibold' : 'font-medium'}`}
                  >
                    {title}
                  </span>
                  <time
                    dateTime={thread.lastAt}
                    className={`shrink-0 text-xs tabular-nums ${thread.unread > 0 ? 'font-semibold text-accent' : 'text-ink-soft'}`}
                  >
                    {inboxTime(thread.lastAt)}
                  </time>
                </span>
                {thread.asksForPerson && (
                  <span
                    className="mt-1 inline-flex items-center gap-1 text-[0.68rem] font-semibold uppercase tracking-[0.12em] text-accent"
                    data-testid="inbox-asks"
                  >
                    <UserRound size={12} aria-hidden /> {T.asksForPerson}
                  </span>
                )}
                <span className="mt-0.5 flex items-center justify-between gap-2">
                  <span className="truncate text-sm text-ink-soft">
                    {mine && `${T.you}: `}
                    {thread.lastMessage.body}
                  </span>
                  {thread.unread > 0 && (
                    <span
                      className="grid h-5 min-w-5 shrink-0 place-items-center rounded-full bg-accent px-1.5 text-[0.7rem] font-semibold tabular-nums text-accent-ink"
                      data-testid="inbox-unread"
                    >
                      <span className="sr-only">{T.unread(thread.unread)}</span>
                      <span aria-hidden>
                        {thread.unread > UNREAD_CAP ? `${UNREAD_CAP}+` : thread.unread}
                      </span>
                    </span>
                  )}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function Initials({ name }: { name: string }) {
  const letters = /\p{L}/u.test(name)
    ? name
        .split(/\s+/)
        .filter((word) => /\p{L}/u.test(word))
        .slice(0, 2)
        .map((word) => word.match(/\p{L}/u)?.[0]?.toUpperCase())
        .join('')
    : '#';
  return (
    <span
      aria-hidden
      className="grid size-10 shrink-0 place-items-center rounded-full border border-gold/40 bg-paper-2 font-display text-base font-semibold text-gold"
    >
      {letters}
    </span>
  );
}

function ThreadView({ phone }: { phone: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const thread = useQuery({
    ...trpc.desk.thread.queryOptions({ phone }),
    refetchInterval: THREAD_EVERY_MS,
  });
  const read = useMutation(
    trpc.desk.readThread.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.desk.inbox.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.desk.thread.queryKey({ phone }) }),
        ]),
    }),
  );
  // Shown with a message she wrote after the thread was last read: it is read now.
  const newest = thread.data?.messages.findLast((m) => m.direction === 'in')?.createdAt;
  const readAt = thread.data?.contact.readAt;
  const unread = Boolean(newest && (!readAt || newest > readAt));
  const { mutate } = read;
  // biome-ignore lint/correctness/useExhaustiveDependencies: again for each newer message of hers.
  useEffect(() => {
    if (unread) mutate({ phone });
  }, [unread, newest, phone, mutate]);

  if (thread.isError) {
    return (
      <div className="lg:col-span-2">
        <BackToInbox />
        <Notice tone="error">
          {errorMessage(thread.error, 'The conversation could not be loaded.')}
        </Notice>
      </div>
    );
  }
  if (!thread.data) {
    return (
      <div className="lg:col-span-2">
        <Loading text="Loading the conversation..." />
      </div>
    );
  }
  const data = thread.data;
  const title = nameOf(data.phone, data.contact.name, data.customer);
  return (
    <>
      <section aria-label={`Conversation with ${title}`} className="min-w-0" data-testid="thread">
        <BackToInbox />
        <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-ink pb-3">
          <div className="flex min-w-0 items-center gap-3">
            <Initials name={title} />
            <div className="min-w-0">
              <h2
                className="truncate font-display text-2xl leading-tight"
                data-testid="thread-title"
              >
                {title}
              </h2>
              <a
                href={telLink(data.phone)}
                className="inline-flex items-center gap-1.5 text-sm tabular-nums text-ink-soft hover:text-ink"
              >
                <Phone size={13} aria-hidden /> {data.phone}
              </a>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            {data.contact.asksForPerson && (
              <span
                className="inline-flex min-h-7 items-center gap-1.5 border border-accent/50 px-2.5 text-[0.7rem] font-semibold uppercase tracking-[0.14em] text-accent"
                data-testid="thread-asks"
              >
                <UserRound size={13} aria-hidden /> {T.asksForPerson}
              </span>
            )}
            <WindowBadge thread={data} />
          </div>
        </header>
        <Conversation messages={data.messages} />
        <ReplyBox thread={data} />
        <InboxTools phone={data.phone} open={data.contact.windowOpen && !data.contact.stopped} />
      </section>
      <div className="mt-10 min-w-0 lg:sticky lg:top-20 lg:mt-0">
        <InboxShopper phone={data.phone} customer={data.customer} />
      </div>
    </>
  );
}

function BackToInbox() {
  return (
    <Link
      to="/desk/inbox"
      search={{}}
      className="-mt-2 mb-2 inline-flex min-h-11 items-center gap-2 text-sm font-medium underline-offset-4 hover:underline lg:hidden"
      data-testid="back-to-inbox"
    >
      <ArrowLeft size={16} aria-hidden /> {T.back}
    </Link>
  );
}

/** Whether the shop may write now: open (until when), shut, or STOP. */
function WindowBadge({ thread }: { thread: Thread }) {
  const { contact } = thread;
  const [label, tone] = contact.stopped
    ? ['STOP', 'border-danger/50 text-danger']
    : contact.windowOpen
      ? ['Window open', 'border-success/50 text-success']
      : ['Window shut', 'border-line text-ink-soft'];
  return (
    <span
      className={`inline-flex min-h-7 items-center border px-2.5 text-[0.7rem] font-semibold uppercase tracking-[0.14em] ${tone}`}
      data-testid="thread-window"
    >
      {label}
    </span>
  );
}

function Conversation({ messages }: { messages: Message[] }) {
  const list = useRef<HTMLOListElement>(null);
  const last = messages.at(-1);
  // The newest message in sight: at first, and whenever one arrives or changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the newest one changes.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [last?.id, last?.status]);
  if (messages.length === 0) {
    return (
      <p className="my-6 border border-dashed border-line px-5 py-10 text-center text-ink-soft">
        {T.noMessages}
      </p>
    );
  }
  return (
    <ol
      ref={list}
      aria-label="Messages"
      className="my-4 flex max-h-[60dvh] flex-col gap-3 [&>li:first-child]:mt-auto overflow-y-auto overscroll-contain bg-paper-2/60 px-3 py-4 sm:px-4 lg:h-[calc(100dvh-26rem)] lg:max-h-none lg:min-h-80"
      data-testid="thread-messages"
    >
      {messages.map((message) => (
        <Bubble key={message.id} message={message} />
      ))}
    </ol>
  );
}

const STATUS_ICON = {
  sending: Clock,
  sent: Check,
  delivered: CheckCheck,
  read: CheckCheck,
  failed: AlertCircle,
} as const;

function Bubble({ message }: { message: Message }) {
  const mine = message.direction === 'out';
  const status = message.status as keyof typeof STATUS_ICON;
  const Icon = STATUS_ICON[status];
  const failed = status === 'failed';
  return (
    <li
      className={`flex max-w-[85%] flex-col sm:max-w-[75%] ${mine ? 'items-end self-end' : 'items-start self-start'}`}
      data-testid={mine ? 'bubble-out' : 'bubble-in'}
    >
      <div
        className={`px-3.5 py-2.5 text-[0.95rem] leading-relaxed shadow-sm ${
          mine
            ? `rounded-2xl rounded-br-sm bg-ink text-paper ${failed ? 'ring-2 ring-danger/60' : ''}`
            : 'rounded-2xl rounded-bl-sm border border-line bg-paper text-ink'
        }`}
      >
        {message.type === 'image' && (
          <p
            className={`mb-1 inline-flex items-center gap-1.5 text-xs font-semibold uppercase tracking-[0.14em] ${mine ? 'text-paper/70' : 'text-ink-soft'}`}
          >
            <ImageIcon size={13} aria-hidden /> {T.photo}
          </p>
        )}
        <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.body}</p>
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-x-1.5 px-1 text-[0.72rem] text-ink-soft">
        <time dateTime={message.createdAt} className="tabular-nums">
          {inboxTime(message.createdAt)}
        </time>
        {mine && (
          <>
            <span aria-hidden>·</span>
            <span data-testid="bubble-by">{message.sentBy}</span>
            <span aria-hidden>·</span>
            <span
              className={`inline-flex items-center gap-1 ${failed ? 'font-semibold text-danger' : status === 'read' ? 'text-accent' : ''}`}
              data-testid="bubble-status"
            >
              {Icon && <Icon size={13} aria-hidden />}
              {T.status[status] ?? message.status}
            </span>
          </>
        )}
      </p>
      {failed && message.error && (
        <p className="mt-0.5 px-1 text-[0.72rem] text-danger">{message.error}</p>
      )}
    </li>
  );
}

function ReplyBox({ thread }: { thread: Thread }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [text, setText] = useState('');
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const reply = useMutation(
    trpc.desk.reply.mutationOptions({
      onSuccess: () => {
        setText('');
        setRequestKey(crypto.randomUUID());
      },
      onSettled: async () => {
        await Promise.all([
          queryClient.invalidateQueries({
            queryKey: trpc.desk.thread.queryKey({ phone: thread.phone }),
          }),
          queryClient.invalidateQueries({ queryKey: trpc.desk.inbox.queryKey() }),
        ]);
      },
    }),
  );
  const { contact } = thread;
  const shut = contact.stopped
    ? WHATSAPP_TEXT.stoppedNumber
    : contact.windowOpen
      ? null
      : WHATSAPP_TEXT.outsideWindow;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (shut || reply.isPending || !text.trim()) return;
    reply.mutate({ phone: thread.phone, text, requestKey });
  };
  const left = WHATSAPP_TEXT_MAX - text.length;
  return (
    <form onSubmit={onSubmit} className="border-t border-line pt-4" data-testid="reply-form">
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {T.reply}
      </label>
      {shut ? (
        <p className="mt-2 text-sm text-ink-soft" data-testid="reply-shut">
          {shut}
        </p>
      ) : (
        contact.windowUntil && (
          <p className="mt-1 text-xs text-ink-soft" data-testid="reply-open">
            {T.windowOpen(inboxTime(contact.windowUntil))}
          </p>
        )
      )}
      <div className="mt-2 flex items-end gap-2">
        <textarea
          id={id}
          rows={2}
          value={text}
          maxLength={WHATSAPP_TEXT_MAX}
          disabled={Boolean(shut)}
          placeholder={shut ? '' : T.replyPlaceholder}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            // Enter sends on a desktop keyboard; Shift+Enter is a new line.
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              if (window.matchMedia('(pointer: fine)').matches) onSubmit(event);
            }
          }}
          className={`${inputClass} mt-0 min-h-12 resize-y`}
          data-testid="reply-text"
        />
        <button
          type="submit"
          className="btn btn-primary min-h-12 shrink-0 px-5"
          disabled={Boolean(shut) || reply.isPending || !text.trim()}
        >
          <MessageCircle size={16} aria-hidden />
          {reply.isPending ? T.sending : T.send}
        </button>
      </div>
      {left < 200 && !shut && (
        <p className="mt-1 text-xs text-ink-soft tabular-nums">{left} characters left</p>
      )}
      {reply.isError && (
        <div className="mt-3">
          <Notice tone="error">{errorMessage(reply.error, 'The reply could not be sent.')}</Notice>
        </div>
      )}
    </form>
  );
}
