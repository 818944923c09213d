import { createFileRoute } from '@tanstack/react-router';
import {
  Facts,
  LegalPage,
  type LegalSection,
  Points,
  ShopContact,
  TextLink,
} from '#app/components/legal/LegalPage.tsx';
import { pageHead } from '#app/seo.ts';
import { ACCOUNT_DELETION, DATA_KEPT, PDPO, RECIPIENTS, SESSION_COOKIE } from '#core/legal.ts';
import { CART_STORAGE_KEY, SETTINGS_STORAGE_KEY } from '#core/settings-rules.ts';

export const Route = createFileRoute('/privacy')({
  head: () =>
    pageHead({
      title: 'Privacy Policy',
      description:
        'What duuka keeps about you — account, profile, orders, payments, texts and chats — why, who else receives it (MTN, Airtel, Pesapal, EgoSMS, Google Gemini), how long it stays and how to get it or delete it.',
      path: '/privacy',
    }),
  component: Privacy,
});

function Privacy() {
  const sections: LegalSection[] = [
    {
      id: 'who-we-are',
      title: 'Who we are',
      body: (
        <>
          <p>
            duuka is a fashion shop in Kampala, Uganda. For the personal data collected through this
            website we are the data controller under Uganda’s Data Protection and Privacy Act, 2019.
            This notice says what we keep, why, who else receives it, how long it stays and what you
            can ask of us.
          </p>
          <p>
            Questions about your data: write to <ShopContact />.
          </p>
        </>
      ),
    },
    {
      id: 'what-we-keep',
      title: 'What we keep, why and for how long',
      body: (
        <>
          <p>
            Only what the shop needs to sell to you, deliver to you and keep its books. You can
            browse the shop without giving us anything.
          </p>
          <ul className="mt-6 divide-y divide-line border-t border-line">
            {DATA_KEPT.map((kept) => (
              <li key={kept.what} className="py-6 last:pb-0">
                <h3 className="font-display text-2xl font-medium text-ink">{kept.what}</h3>
                <div className="mt-3">
                  <Points items={kept.items} />
                </div>
                <Facts
                  rows={[
                    { label: 'Why', text: kept.why },
                    { label: 'How long', text: kept.kept },
                  ]}
                />
              </li>
            ))}
          </ul>
        </>
      ),
    },
    {
      id: 'who-else',
      title: 'Who else receives it',
      body: (
        <>
          <p>
            We never sell your data and share none of it with advertisers. The boutique’s staff see
            orders to prepare and deliver them. Beyond us, these services receive what they need to
            do their part:
          </p>
          <ul className="mt-6 grid gap-4 md:grid-cols-2">
            {RECIPIENTS.map((recipient) => (
              <li key={recipient.name} className="border border-line bg-paper-2 p-5">
                <p className="eyebrow">{recipient.role}</p>
                <h3 className="mt-1 font-display text-2xl font-medium text-ink">
                  {recipient.name}
                </h3>
                <p className="mt-2 text-sm">{recipient.receives}</p>
              </li>
            ))}
          </ul>
          <p>
            Google, Resend, Cloudflare and Neon may process data outside Uganda. We use each of
            these services only for the work described here.
          </p>
        </>
      ),
    },
    {
      id: 'browser',
      title: 'Cookies and your browser',
      body: (
        <p>
          The shop sets one cookie to keep you signed in (
          <code className="text-[0.92em] text-ink">{SESSION_COOKIE}</code>), one more during a
          two-factor sign-in, one if you turn on “Use less data”, and keeps your settings (
          <code className="text-[0.92em] text-ink">{SETTINGS_STORAGE_KEY}</code>) and your cart (
          <code className="text-[0.92em] text-ink">{CART_STORAGE_KEY}</code>) in your browser. There
          are no advertising or tracking cookies. The{' '}
          <TextLink to="/cookies">Cookie Policy</TextLink> lists each one.
        </p>
      ),
    },
    {
      id: 'delete',
      title: 'Deleting your account',
      body: (
        <>
          <p>
            You can delete your account yourself at any time: <strong>Delete account</strong> at the
            foot of your <TextLink to="/profile">Profile</TextLink> and{' '}
            <TextLink to="/settings">Settings</TextLink> pages, confirmed with your password. It
            happens at once and cannot be undone. It removes:
          </p>
          <Points items={ACCOUNT_DELETION.removed} />
          <p>What stays, because the shop must keep its books:</p>
          <Points items={ACCOUNT_DELETION.kept} />
        </>
      ),
    },
    {
      id: 'rights',
      title: 'Your rights',
      body: (
        <>
          <p>Under the Data Protection and Privacy Act, 2019 you may:</p>
          <Points
            items={[
              'ask what we hold about you and for a copy of it;',
              <>
                correct it — your name, phone number and address on your{' '}
                <TextLink to="/profile">Profile</TextLink>, or ask us;
              </>,
              'ask us to delete it, or delete your account yourself;',
              'object to our using it, or ask us to stop texting or writing to you.',
            ]}
          />
          <p>
            Write to <ShopContact />, or use the <TextLink to="/contact">Contact</TextLink> page. We
            may ask you to prove the account is yours before we answer.
          </p>
          <p>
            If you are not satisfied with our answer, you can complain to the{' '}
            <a
              href={PDPO.url}
              className="font-semibold text-accent underline underline-offset-4"
              rel="noreferrer"
            >
              {PDPO.name}
            </a>{' '}
            of the National Information Technology Authority, Uganda.
          </p>
        </>
      ),
    },
    {
      id: 'safety',
      title: 'Keeping it safe',
      body: (
        <Points
          items={[
            'Your password is stored only as a one-way hash; repeated wrong guesses are slowed down.',
            'You can turn on two-factor sign-in with an authenticator app in your Settings.',
            'The sign-in cookie cannot be read by page scripts; changing your password signs out your other devices.',
            'Card details are typed on Pesapal’s page and never reach duuka.',
          ]}
        />
      ),
    },
    {
      id: 'changes',
      title: 'Changes to this notice',
      body: (
        <p>
          When what we keep or whom we share it with changes, we update this page and its date
          above.
        </p>
      ),
    },
  ];
  return (
    <LegalPage
      path="/privacy"
      title="Privacy Policy"
      lede="What we keep about you, why, who else sees it, and how to have it back or gone."
      sections={sections}
    />
  );
}
