import type { Db } from '#db/client.ts';
import { contactMessages, newsletterSubscriptions } from '#db/schema/index.ts';

/** Adds an address to the newsletter once; a second subscription is welcome and changes nothing. */
export async function subscribeToNewsletter(db: Db, email: string): Promise<{ isNew: boolean }> {
  const inserted = await db
    .insert(newsletterSubscriptions)
    .values({ email })
    .onConflictDoNothing({ target: newsletterSubscriptions.email })
    .returning({ email: newsletterSubscriptions.email });
  return { isNew: inserted.length === 1 };
}

export type ContactMessage = {
  name: string | null;
  email: string;
  phone: string | null;
  comment: string | null;
};

/** Stores a message from the Contact page, as plain text (it is escaped wherever it is shown). */
export async function saveContactMessage(db: Db, message: ContactMessage): Promise<{ id: string }> {
  const [row] = await db
    .insert(contactMessages)
    .values(message)
    .returning({ id: contactMessages.id });
  if (!row) throw new Error('contact_messages insert returned no row');
  return row;
}
