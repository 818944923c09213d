// The support chat (spec: account "Support chat"): a button opens a panel at bottom right that
// can be minimised to a bar or closed. Signed in: a menu of contact details and categories, and
// the chat itself (Conversation.tsx), whose replies stream in as the assistant writes them.
// Closing the panel or leaving the page stops a reply mid-way.
//
// The button lives in the fixed header (decision 0053), not floating over the page: floating, it
// sat on whatever scrolled beneath it (Subscribe, the rows' arrows, Sign In on a phone).
import { Link } from '@tanstack/react-router';
import { Maximize2, MessageCircle, Minus, X } from 'lucide-react';
import { createContext, lazy, type ReactNode, Suspense, useContext, useState } from 'react';
import { useSession } from '#app/session.ts';
import { CHAT_TEXT } from '#core/chat.ts';

type Panel = 'closed' | 'open' | 'minimised';

const PANEL_ID = 'support-chat';

/** The conversation's code (and its streaming client) loads on the first open. */
const Conversation = lazy(() => import('./Conversation'));

const ChatContext = createContext<{ panel: Panel; setPanel: (panel: Panel) => void }>({
  panel: 'closed',
  setPanel: () => {},
});

/** Shares whether the chat is open between the header's button and the panel. */
export function ChatProvider({ children }: { children: ReactNode }) {
  const [panel, setPanel] = useState<Panel>('closed');
  return <ChatContext.Provider value={{ panel, setPanel }}>{children}</ChatContext.Provider>;
}

/** The header's "Ask duuka": an icon on a phone, named beside the shop's links on a desktop. */
export function ChatButton() {
  const { panel, setPanel } = useContext(ChatContext);
  const open = panel === 'open';
  return (
    <button
      type="button"
      onClick={() => setPanel(open ? 'closed' : 'open')}
      aria-expanded={open}
      aria-controls={open ? PANEL_ID : undefined}
      className="grid size-10 place-items-center hover:text-accent lg:flex lg:size-auto lg:gap-2 lg:text-sm lg:font-medium"
    >
      <MessageCircle size={20} aria-hidden className="lg:size-[18px]" />
      {/* On phones the icon alone shows; the name stays for screen readers. */}
      <span className="sr-only lg:not-sr-only">Ask duuka</span>
    </button>
  );
}

/** The panel, at bottom right over the page while open (full width on a phone). */
export function ChatPanel() {
  const { panel, setPanel } = useContext(ChatContext);
  const { user } = useSession();
  // A product card followed on a phone: the panel, which covers the page there, folds to its bar.
  const makeWay = () => {
    if (window.matchMedia('(max-width: 639px)').matches) setPanel('minimised');
  };
  if (panel === 'closed') return null;
  return (
    <section
      id={PANEL_ID}
      aria-label="Support chat"
      className={`fixed inset-x-2 bottom-2 z-40 flex flex-col overflow-hidden border border-line bg-paper text-ink shadow-2xl shadow-black/25 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-[24rem] print:hidden ${
        panel === 'minimised' ? '' : 'h-[min(36rem,calc(100dvh-5rem))]'
      }`}
    >
      <header className="band flex items-center justify-between gap-2 px-4 py-3 text-paper [color-scheme:light]">
        <div>
          <p className="font-display text-xl leading-none">duuka assistant</p>
          <p className="mt-1 text-xs text-paper/70">{CHAT_TEXT.panelNote}</p>
        </div>
        <div className="flex items-center gap-1">
          {panel === 'open' ? (
            <PanelButton label="Minimise chat" onClick={() => setPanel('minimised')}>
              <Minus size={18} aria-hidden />
            </PanelButton>
          ) : (
            <PanelButton label="Maximise chat" onClick={() => setPanel('open')}>
              <Maximize2 size={16} aria-hidden />
            </PanelButton>
          )}
          <PanelButton label="Close chat" onClick={() => setPanel('closed')}>
            <X size={18} aria-hidden />
          </PanelButton>
        </div>
      </header>
      {/* Kept mounted while minimised: the conversation (and a reply on its way) survives. */}
      <div className={panel === 'minimised' ? 'hidden' : 'flex min-h-0 flex-1 flex-col'}>
        {user ? (
          <Suspense fallback={<p className="m-auto text-sm text-ink-soft">Opening the chat…</p>}>
            <Conversation onOpenProduct={makeWay} />
          </Suspense>
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

/** One of the panel's bar buttons (minimise, maximise, close): an icon with its name. */
function PanelButton(props: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={props.label}
      onClick={props.onClick}
      className="grid size-9 place-items-center hover:text-[#cfa96f]"
    >
      {props.children}
    </button>
  );
}
