import { createFileRoute } from '@tanstack/react-router';
import {
  LegalPage,
  type LegalSection,
  Points,
  ShopContact,
  TextLink,
} from '#app/components/legal/LegalPage.tsx';
import { pageHead } from '#app/seo.ts';
import { TERMS_FACTS } from '#core/legal.ts';

export const Route = createFileRoute('/terms')({
  head: () =>
    pageHead({
      title: 'Terms of Service',
      description:
        'How ordering from duuka works: prices in UGX, mobile money, card, bank transfer or cash, delivery options and fees shown at checkout, 14-day returns, cancellations and refunds, under the laws of Uganda.',
      path: '/terms',
    }),
  component: Terms,
});

function Terms() {
  const sections: LegalSection[] = [
    {
      id: 'about',
      title: 'About these terms',
      body: (
        <p>
          These terms cover buying from duuka, a fashion shop in Kampala, Uganda, through this
          website. By creating an account or placing an order you accept them. How we handle your
          personal data is in our <TextLink to="/privacy">Privacy Policy</TextLink>.
        </p>
      ),
    },
    {
      id: 'account',
      title: 'Your account',
      body: (
        <Points
          items={[
            'You need an account, confirmed through the link we email you, to check out, follow your orders and use the assistant.',
            `Choose a password of at least ${TERMS_FACTS.minPasswordLength} characters and keep it to yourself; you can add two-factor sign-in in your Settings.`,
            'Keep your name, phone number and delivery address on your Profile correct: we deliver to them and text that phone.',
            <>
              You can delete your account at any time from your{' '}
              <TextLink to="/profile">Profile</TextLink> or{' '}
              <TextLink to="/settings">Settings</TextLink>.
            </>,
          ]}
        />
      ),
    },
    {
      id: 'ordering',
      title: 'Ordering',
      body: (
        <>
          <p>
            Add pieces to your cart and check out. Your order is placed when you press{' '}
            <strong>Place Order</strong>: the pieces are set aside for you at that moment, and we
            text you to confirm. We can only sell what is in stock; if a size runs out while you
            decide, checkout tells you before anything is charged.
          </p>
          <p>
            We may cancel an order — for example when a payment does not arrive, or a piece turns
            out to be damaged — and we text you when we do.
          </p>
        </>
      ),
    },
    {
      id: 'prices',
      title: 'Prices and payment',
      body: (
        <>
          <p>
            Prices are in Ugandan shillings (UGX), and you pay in UGX. If you choose another
            currency in your Settings, the amounts shown in it are approximate, for guidance only.
          </p>
          <Points
            items={[
              `Mobile money (MTN MoMo or Airtel Money): your phone asks you to approve the payment; approve it within ${TERMS_FACTS.approveMinutes} minutes.`,
              'Card: you pay on Pesapal’s secure page; your card details never reach duuka.',
              'Bank transfer: the checkout shows our account; the order is paid once we confirm the money arrived.',
              'Cash on delivery: where the delivery option you choose offers it.',
            ]}
          />
        </>
      ),
    },
    {
      id: 'delivery',
      title: 'Delivery and pickup',
      body: (
        <>
          <p>
            The shop sets its delivery options and their fees. At checkout you see every option on
            offer — such as delivery in Kampala, pickup at the boutique or a bus courier upcountry —
            with its fee and the days it usually takes, before you place your order. When the shop
            offers free delivery above an order value, checkout shows it too, and the fee you see
            there is the fee you pay.
          </p>
          <p>
            In Kampala, give an area, a landmark and a phone number the rider can call. Upcountry,
            give your town and, where you prefer one, the bus company or stage: the parcel goes by
            bus courier, you collect it at the stage, and we call you when it arrives. Delivery
            times are estimates; you can follow each order’s progress under{' '}
            <TextLink to="/orders">My Orders</TextLink>.
          </p>
        </>
      ),
    },
    {
      id: 'returns',
      title: 'Returns and exchanges',
      body: (
        <Points
          items={[
            `Returns within ${TERMS_FACTS.returnDays} days, for pieces unworn and with their tags.`,
            `Exchanges within ${TERMS_FACTS.exchangeDays} days, with your receipt.`,
            <>
              To arrange one, write to <ShopContact /> with your receipt number (RCP-…), which is on
              your receipt under <TextLink to="/orders">My Orders</TextLink>.
            </>,
          ]}
        />
      ),
    },
    {
      id: 'cancellations',
      title: 'Cancellations and refunds',
      body: (
        <Points
          items={[
            <>
              An order that is not yet paid can be deleted under{' '}
              <TextLink to="/orders">My Orders</TextLink>; its pieces go back on sale.
            </>,
            'To cancel an order you have paid for, contact us before it leaves the boutique.',
            `When we cancel a paid order, we text you and refund you within ${TERMS_FACTS.refundDays} days, the way you paid.`,
            'Money that reaches us for an order that did not need it — a second payment, for example — is refunded the same way.',
          ]}
        />
      ),
    },
    {
      id: 'assistant',
      title: 'The “Ask duuka” assistant',
      body: (
        <p>
          The assistant is an automated helper that can make mistakes. Its answers about pieces,
          sizes, stock, delivery and your orders are guidance only; the product pages, your order
          and receipt, and these terms are what count.
        </p>
      ),
    },
    {
      id: 'law',
      title: 'Governing law',
      body: (
        <p>
          These terms are governed by the laws of the Republic of Uganda, and the courts of Uganda
          decide any dispute about them. Nothing in them takes away the rights you have as a
          consumer under Ugandan law.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Questions',
      body: (
        <p>
          Write to <ShopContact />, or use the <TextLink to="/contact">Contact</TextLink> page. When
          these terms change, we update this page and its date above; an order is governed by the
          terms in force when you placed it.
        </p>
      ),
    },
  ];
  return (
    <LegalPage
      path="/terms"
      title="Terms of Service"
      lede="How ordering, paying, delivery and returns work at duuka — plainly put."
      sections={sections}
    />
  );
}
