// The support chat, for signed-in shoppers: start a session, read the history, send a message and
// receive the reply as it is produced (an async generator through httpBatchStreamLink), clear.
import {
  CHAT_LIMIT,
  CHAT_TEXT,
  chatHistoryInput,
  chatSendInput,
  newSessionId,
  ownsSession,
} from '#core/chat.ts';
import type { ReplyMeta } from '../services/chat/assistant.ts';
import {
  chatHistory,
  clearChat,
  saveMessage,
  shopperContext,
} from '../services/chat/conversation.ts';
import { limited, protectedProcedure, router, shopperError } from '../trpc.ts';

export const chatRouter = router({
  /** A new session id; the shopper's earlier messages when there are any. */
  start: protectedProcedure.mutation(async ({ ctx }) => ({
    sessionId: newSessionId(ctx.user.id),
    messages: await chatHistory(ctx.db, ctx.user.id).catch((error: unknown) => {
      console.warn('Chat history could not be read', error);
      return [];
    }),
  })),

  history: protectedProcedure.input(chatHistoryInput).query(({ ctx, input }) => {
    if (input?.sessionId && !ownsSession(ctx.user.id, input.sessionId)) {
      return shopperError('NOT_FOUND', CHAT_TEXT.sessionNotFound);
    }
    return chatHistory(ctx.db, ctx.user.id, input?.sessionId);
  }),

  /** Yields the reply's text as it arrives (strings), then the cards of the products it names
   * (one `{ type: 'data-products', data }` part); the whole exchange is stored at the end. */
  send: protectedProcedure
    .input(chatSendInput)
    .use(limited('chat', CHAT_LIMIT))
    .mutation(async function* ({ ctx, input, signal }) {
      if (!ownsSession(ctx.user.id, input.sessionId)) {
        return shopperError('NOT_FOUND', CHAT_TEXT.sessionNotFound);
      }
      const { contact, ...context } = await shopperContext(ctx.db, ctx.user, ctx.assistant.contact);
      const own = { userId: ctx.user.id, sessionId: input.sessionId };
      await saveMessage(ctx.db, { ...own, role: 'user', content: input.text });
      const meta: ReplyMeta = { model: null, tools: [], fallback: null };
      let answer = '';
      try {
        // The model's client (the AI SDK) loads on the first reply of a Worker instance, not
        // with every page: it is the heaviest code the pages never run (docs/worker-bundle.md).
        const { reply } = await import('../services/chat/assistant.ts');
        for await (const chunk of reply(
          ctx.db,
          { ...ctx.assistant, contact },
          ctx.user,
          context,
          input.text,
          meta,
          signal,
        )) {
          if (typeof chunk === 'string') answer += chunk;
          yield chunk;
        }
      } finally {
        // Finished, or stopped by the shopper (widget closed): what was said is kept. In the
        // background, as the request may already be over.
        if (answer) {
          ctx.background(saveMessage(ctx.db, { ...own, role: 'assistant', content: answer, meta }));
        }
      }
    }),

  clear: protectedProcedure.mutation(async ({ ctx }) => {
    await clearChat(ctx.db, ctx.user.id);
    return { cleared: true };
  }),
});
