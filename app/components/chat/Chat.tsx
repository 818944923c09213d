// The support chat (spec: account "Support chat"): a button opens a panel at bottom right that
// can be minimised to a bar or closed. Signed in: a menu of contact details and categories, and
// the chat itself (Conversation.tsx), whose replies stream in as the assistant writes them.
// Closing the panel or leaving the page stops a reply mid-way.
//
// The button lives in the fixed header (decision 0053), not floating over the page: floating, it
// sat on whatever scrolled beneath it (Subscribe, the rows' arrows, Sign In on a phone).
import { MessageCircle } from 'lucide-react';
import { createContext, lazy, type ReactNode, Suspense, useContext, useState } from 'react';

export type Panel = 'closed' | 'open' | 'minimised';

export const PANEL_ID = 'support-chat';

/** The panel's code (its texts, the conversation and its streaming client) loads on the first
 * open, not with every page (issue 38). */
const OpenPanel = lazy(() => import('./ChatPanel'));

export const ChatContext = createContext<{ panel: Panel; setPanel: (panel: Panel) => void }>({
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
  const { panel } = useContext(ChatContext);
  if (panel === 'closed') return null;
  return (
    <Suspense fallback={null}>
      <OpenPanel />
    </Suspense>
  );
}
