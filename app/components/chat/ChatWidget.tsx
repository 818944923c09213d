// The floating support chat (spec: account "Support chat"): a button at bottom right opens a
// panel that can be minimised to a bar or closed. Signed in: a menu of contact details and
// categories, and the chat itself, whose replies stream in as the assistant writes them. Closing
// the panel or leaving the page stops a reply mid-way.
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, Maximize2, MessageCircle, Minus, Send, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import {
  CHAT_CATEGORIES,
  CHAT_CHIPS,
  CHAT_MAX_LENGTH,
  CHAT_TEXT,
  DEFAULT_SUPPORT,
} from '#core/chat.ts';
import { formatTime } from '#core/orders.ts';
import { serverMessage } from '../../cart';
import { useSession } from '../../session';
import { useTRPC, useTRPCClient } from '../../trpc';

type Message = { id: string; role: 'user' | 'assistant'; content: string; createdAt: string };
type Panel = 'closed' | 'open' | 'minimised';

export function ChatWidget() {
  const [panel, setPanel] = useState<Panel>('closed');
  const { user } = useSession();
  if (panel === 'closed') {
    return (
      <button
        type="button"
        onClick={() => setPanel('open')}
        className="fixed right-4 bottom-4 z-40 flex items-center gap-2 rounded-full bg-ink px-5 py-3.5 text-sm font-semibold text-paper shadow-xl shadow-black/20 hover:bg-accent hover:text-accent-ink sm:right-6 sm:bottom-6 print:hidden"
      >
        <MessageCircle size={20} aria-hidden />
        {/* On phones the icon alone shows; the name stays for screen readers. */}
        <span className="sr-only sm:not-sr-only">Ask duuka</span>
      </button>
    );
  }
  return (
    <section
      aria-label="Support chat"
      className={`fixed inset-x-2 bottom-2 z-40 flex flex-col overflow-hidden border border-line bg-paper text-ink shadow-2xl shadow-black/25 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-[24rem] print:hidden ${
        panel === 'minimised' ? '' : 'h-[min(36rem,calc(100dvh-5rem))]'
      }`}
    >
      <header className="band flex items-center justify-between gap-2 px-4 py-3 text-paper [color-scheme:light]">
        <div>
          <p className="font-display text-xl leading-none">duuka assistant</p>
          <p className="mt-1 text-xs text-paper/70">Replies in seconds · Mon-Sat 8AM-8PM team</p>
        </div>
        <div className="flex items-center gap-1">
          {panel === 'open' ? (
            <button
              type="button"
              aria-label="Minimise chat"
              onClick={() => setPanel('minimised')}
              className="grid size-9 place-items-center hover:text-[#cfa96f]"
            >
              <Minus size={18} aria-hidden />
            </button>
          ) : (
            <button
              type="button"
              aria-label="Maximise chat"
              onClick={() => setPanel('open')}
              className="grid size-9 place-items-center hover:text-[#cfa96f]"
            >
              <Maximize2 size={16} aria-hidden />
            </button>
          )}
          <button
            type="button"
            aria-label="Close chat"
            onClick={() => setPanel('closed')}
            className="grid size-9 place-items-center hover:text-[#cfa96f]"
          >
            <X size={18} aria-hidden />
          </button>
        </div>
      </header>
      {/* Kept mounted while minimised: the conversation (and a reply on its way) survives. */}
      <div className={panel === 'minimised' ? 'hidden' : 'flex min-h-0 flex-1 flex-col'}>
        {user ? (
          <Conversation />
        ) : (
          <div className="m-auto max-w-xs p-6 text-center">
            <p>{CHAT_TEXT.loginToChat}</p>
            <Link to="/login" className="btn btn-primary mt-5" onClick={() => setPanel('closed')}>
              Log In
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}

function Conversation() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const start = useMutation(trpc.chat.start.mutationOptions());
  const [session, setSession] = useState<string | null>(null);
  const [view, setView] = useState<'menu' | 'chat'>('menu');
  const [messages, setMessages] = useState<Message[]>([]);
  const [input, setInput] = useState('');
  const [waiting, setWaiting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const reply = useRef<AbortController | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const started = useRef(false);

  // A session starts when the panel opens; earlier messages bring the chat view.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start.mutate(undefined, {
      onSuccess: (result) => {
        setSession(result.sessionId);
        setMessages(result.messages);
        if (result.messages.length > 0) setView('chat');
      },
      onError: (error) => setProblem(serverMessage(error, CHAT_TEXT.sendFailed(DEFAULT_SUPPORT))),
    });
  });
  // Closing the panel or leaving stops the reply on its way.
  useEffect(() => () => reply.current?.abort(), []);
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  });

  async function send(text: string) {
    const trimmed = text.trim();
    if (!session || waiting || !trimmed) return;
    setView('chat');
    setInput('');
    setWaiting(true);
    const now = new Date().toISOString();
    const answerId = `a-${Date.now()}`;
    setMessages((all) => [
      ...all,
      { id: `u-${Date.now()}`, role: 'user', content: trimmed, createdAt: now },
      { id: answerId, role: 'assistant', content: '', createdAt: now },
    ]);
    const append = (piece: string) =>
      setMessages((all) =>
        all.map((m) => (m.id === answerId ? { ...m, content: m.content + piece } : m)),
      );
    const controller = new AbortController();
    reply.current = controller;
    try {
      const stream = await client.chat.send.mutate(
        { sessionId: session, text: trimmed },
        { signal: controller.signal },
      );
      for await (const piece of stream) append(piece);
    } catch (error) {
      if (controller.signal.aborted) return;
      const known = serverMessage(error, '');
      append(known && !/unexpected/i.test(known) ? known : CHAT_TEXT.sendFailed(DEFAULT_SUPPORT));
    } finally {
      if (reply.current === controller) reply.current = null;
      setWaiting(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void send(input);
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send(input);
    }
  }

  if (problem)
    return <p className="m-auto max-w-xs p-6 text-center text-sm text-danger">{problem}</p>;
  if (view === 'menu') {
    return (
      <div className="min-h-0 flex-1 overflow-y-auto p-5">
        <p className="font-display text-2xl">How can we help?</p>
        <dl className="mt-3 space-y-1 text-sm text-ink-soft">
          <div>
            <dt className="sr-only">Phone</dt>
            <dd>{DEFAULT_SUPPORT.phone}</dd>
          </div>
          <div>
            <dt className="sr-only">Email</dt>
            <dd>{DEFAULT_SUPPORT.email}</dd>
          </div>
          <div>
            <dt className="sr-only">Hours</dt>
            <dd>Mon-Sat 8AM-8PM · Sun 10AM-6PM</dd>
          </div>
        </dl>
        <ul className="mt-5 grid gap-2" aria-label="Chat topics">
          {CHAT_CATEGORIES.map((category) => (
            <li key={category.label}>
              <button
                type="button"
                disabled={!session}
                onClick={() => void send(category.opener)}
                className="w-full border border-line px-4 py-3 text-left text-sm font-medium hover:border-ink hover:bg-paper-2 disabled:opacity-50"
              >
                {category.label}
              </button>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const last = messages.at(-1);
  return (
    <>
      <div className="flex items-center border-b border-line px-2 py-1">
        <button
          type="button"
          onClick={() => setView('menu')}
          className="grid size-9 place-items-center hover:text-accent"
          aria-label="Back to topics"
        >
          <ArrowLeft size={18} aria-hidden />
        </button>
      </div>
      <div
        role="log"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboard users can scroll it (axe scrollable-region-focusable).
        tabIndex={0}
        aria-label="Messages"
        className="min-h-0 flex-1 overflow-y-auto p-4"
      >
        <ol ref={list} className="space-y-3">
          {messages.map((message) => (
            <li
              key={message.id}
              className={`flex flex-col ${message.role === 'user' ? 'items-end' : 'items-start'}`}
            >
              {message.content && (
                <p
                  data-role={message.role}
                  className={`max-w-[85%] whitespace-pre-wrap break-words px-3.5 py-2.5 text-sm ${
                    message.role === 'user' ? 'bg-ink text-paper' : 'bg-paper-2 text-ink'
                  }`}
                >
                  {message.content}
                </p>
              )}
              <span className="mt-1 text-[0.68rem] text-ink-soft">
                {formatTime(message.createdAt)}
              </span>
            </li>
          ))}
          {waiting && last?.role === 'assistant' && !last.content && (
            <li
              className="flex items-center gap-1 text-ink-soft"
              aria-label="The assistant is typing"
            >
              <span className="size-1.5 animate-bounce rounded-full bg-current motion-reduce:animate-none" />
              <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:120ms] motion-reduce:animate-none" />
              <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:240ms] motion-reduce:animate-none" />
            </li>
          )}
        </ol>
      </div>
      <fieldset className="flex gap-1.5 overflow-x-auto border-t border-line px-3 pt-3 scroller">
        <legend className="sr-only">Suggestions</legend>
        {CHAT_CHIPS.map((chip) => (
          <button
            key={chip.label}
            type="button"
            onClick={() => setInput(chip.text)}
            className="shrink-0 rounded-full border border-line px-3 py-1 text-xs font-medium hover:border-ink"
          >
            {chip.label}
          </button>
        ))}
      </fieldset>
      <form onSubmit={submit} className="flex items-end gap-2 p-3">
        <textarea
          value={input}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          maxLength={CHAT_MAX_LENGTH}
          placeholder="Type your message..."
          aria-label="Your message"
          className="max-h-28 min-h-11 flex-1 resize-none border border-line bg-paper px-3 py-2.5 text-sm focus:border-ink focus:outline-none"
        />
        <button
          type="submit"
          className="btn btn-primary min-h-11 px-4"
          disabled={waiting || !input.trim() || !session}
          aria-label="Send"
        >
          <Send size={16} aria-hidden />
        </button>
      </form>
    </>
  );
}
