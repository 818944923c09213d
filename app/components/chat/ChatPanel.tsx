// The support chat's panel while open (Chat.tsx loads it on the first open): the bar to
// minimise, maximise or close it, and the conversation (signed in) or the way to sign in.
import { Link } from '@tanstack/react-router';
import { Maximize2, Minus, X } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useContext } from 'react';
import { useSession } from '#app/session.ts';
import { CHAT_TEXT } from '#core/chat.ts';
import { ChatContext, PANEL_ID } from './Chat';

/** The conversation's code (and its streaming client) loads with the panel. */
const Conversation = lazy(() => import('./Conversation'));

/** The panel, at bottom right over the page while open (full width on a phone). */
export default function ChatPanel() {
  const { panel, setPanel } = useContext(ChatContext);
  const { user } = useSession();
  // A product card followed on a phone: the panel, which covers the page there, folds to its bar.
  const makeWay = () => {
    if (window.matchMedia('(max-width: 639px)').matches) setPanel('minimised');
  };
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
