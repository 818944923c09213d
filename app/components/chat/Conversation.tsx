// The chat itself (loaded when a signed-in shopper first opens the panel, not with every page):
// the menu of contact details and categories, the messages, and replies streaming in.
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Send } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { errorMessage } from '#app/error-message.ts';
import { useTRPC, useTRPCClient } from '#app/trpc-client.ts';
import {
  CHAT_CATEGORIES,
  CHAT_CHIPS,
  CHAT_MAX_LENGTH,
  CHAT_TEXT,
  type ChatProductCard,
  DEFAULT_SUPPORT,
  isCardsPart,
} from '#core/chat.ts';
import { formatTime } from '#core/order-rules.ts';
import { useStoreDetails, useSupportLinks } from '../SocialIcons';
import { ProductCards } from './ProductCards';

type Message = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  /** The cards of the products the reply names (they arrive after its text). */
  products?: ChatProductCard[];
};

export default function Conversation({ onOpenProduct }: { onOpenProduct?: () => void } = {}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const start = useMutation(trpc.chat.start.mutationOptions());
  const [session, setSession] = useState<string | null>(null);
  // What the assistant's menu names: the support contact and the hours the owner set.
  const support = useSupportLinks();
  const store = useStoreDetails();
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
      onError: (error) => setProblem(errorMessage(error, CHAT_TEXT.sendFailed(DEFAULT_SUPPORT))),
    });
  });
  // Closing the panel or leaving stops the reply on its way.
  useEffect(() => () => reply.current?.abort(), []);
  useEffect(() => {
    // The log alone scrolls, and only down: scrollIntoView would also scroll the panel (and a
    // row of product cards) sideways.
    const log = list.current?.parentElement;
    if (log) log.scrollTop = log.scrollHeight;
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
      for await (const piece of stream) {
        if (typeof piece === 'string') append(piece);
        else if (isCardsPart(piece)) {
          setMessages((all) =>
            all.map((m) => (m.id === answerId ? { ...m, products: piece.data } : m)),
          );
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      const known = errorMessage(error, '');
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
            <dd>{support.phone}</dd>
          </div>
          <div>
            <dt className="sr-only">Email</dt>
            <dd>{support.email}</dd>
          </div>
          <div>
            <dt className="sr-only">Hours</dt>
            <dd>{store?.summary}</dd>
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
        className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto p-4"
      >
        <ol ref={list} className="space-y-3">
          {messages.map((message) => (
            <li
              key={message.id}
              className={`flex min-w-0 flex-col ${message.role === 'user' ? 'items-end' : 'items-start'}`}
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
              {message.role === 'assistant' && message.products && message.products.length > 0 && (
                <ProductCards cards={message.products} onOpen={onOpenProduct} />
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
      {/* min-w-0: a fieldset is at least as wide as its content by default; the chips made the
          whole panel scrollable sideways (a focus or a scroll into view then shifted it). */}
      <fieldset className="flex min-w-0 gap-1.5 overflow-x-auto border-t border-line px-3 pt-3 scroller">
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
