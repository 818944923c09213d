// The dev-only mailbox: recent mails from the local outbox, newest first (app/routes/dev/mailbox.ts
// shows them).
import { desc } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { mailOutbox } from '#db/schema/index.ts';

export type OutboxMail = typeof mailOutbox.$inferSelect;

export function recentMails(db: Db, limit = 50): Promise<OutboxMail[]> {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}
