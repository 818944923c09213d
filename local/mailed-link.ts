// The newest mailed link for an address, from the local outbox: how the browser tests and the
// bench's shoppers (local/http-shopper.ts) verify an address. better-auth sends verification
// mail after answering the request (the Worker's waitUntil), so the mail may land a moment later:
// look again for up to 5 s before giving up.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { mailOutbox } from '#db/schema/index.ts';

/** The newest mail to an address in the outbox, if any. */
export async function latestMail(db: Db, to: string) {
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, to.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return mail;
}

export async function mailedLink(db: Db, to: string, after?: Date): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const mail = await latestMail(db, to);
    if (mail?.link && (!after || mail.createdAt >= after)) return mail.link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail with a link for ${to}`);
}
