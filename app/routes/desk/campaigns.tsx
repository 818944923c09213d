// Campaigns (/desk/campaigns, issue 35, decision 0085): a promotional text to the shoppers who
// switched Promotions on. Pick an offer and the audience, write the message, see how many get it,
// what it costs and the text itself, then send. Below: the campaigns sent, and the cart
// reminder's switch. Owner and staff.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { FormGroup } from '#app/components/desk/FormGroup.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { CAMPAIGNS_TEXT, sendCampaignInput } from '#core/campaign-rules.ts';
import { formatUGX } from '#core/money.ts';
import { SMS_TEXT } from '#core/sms.ts';

export const Route = createFileRoute('/desk/campaigns')({
  head: privatePageHead('Campaigns · Desk'),
  component: Campaigns,
});

type Loaded = ApiOutput['desk']['campaigns'];

function Campaigns() {
  const trpc = useTRPC();
  const page = useQuery(trpc.desk.campaigns.queryOptions());
  if (page.isPending) return <Loading text="Loading the campaigns..." />;
  if (page.isError) {
    return (
      <DeskPageProblem title="Campaigns">
        {errorMessage(page.error, 'The campaigns could not be loaded.')}
      </DeskPageProblem>
    );
  }
  return (
    <DeskPage title="Campaigns">
      <div className="mt-8 grid gap-12 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <NewCampaign loaded={page.data} />
        <div className="space-y-12">
          <CartReminders on={page.data.cartReminders} />
          <SentCampaigns loaded={page.data} />
        </div>
      </div>
    </DeskPage>
  );
}

function NewCampaign({ loaded }: { loaded: Loaded }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const offerId = useId();
  const audienceId = useId();
  const [promotionId, setPromotionId] = useState<number | null>(loaded.offers[0]?.id ?? null);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // A send's key: made when the form opens, kept for a retry, renewed after a send.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const audience = useQuery({
    ...trpc.desk.campaignAudience.queryOptions({ promotionId: promotionId ?? 0, categoryId }),
    enabled: promotionId !== null,
    placeholderData: keepPreviousData,
  });
  const send = useMutation(
    trpc.desk.sendCampaign.mutationOptions({
      onSuccess: async (sent) => {
        setProblem(null);
        setMessage('');
        setRequestKey(crypto.randomUUID());
        toast.success(CAMPAIGNS_TEXT.sent(sent.queued));
        await queryClient.invalidateQueries({ queryKey: trpc.desk.campaigns.queryKey() });
      },
      onError: (error) => {
        const text = errorMessage(error, 'The campaign could not be sent. Try again.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );

  if (loaded.offers.length === 0) {
    return (
      <FormGroup title="New campaign">
        <Notice tone="info">
          No offer is on. Make one under Offers first: a campaign announces an offer.
        </Notice>
      </FormGroup>
    );
  }

  const shown = audience.data;
  const typed = message.trim();
  const preview = shown
    ? SMS_TEXT.promotional({
        message: typed || 'Your message',
        code: shown.code,
        stopLink: shown.link,
      })
    : null;
  const tooLong = shown ? typed.length > shown.room : false;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const payload = { promotionId: promotionId ?? 0, categoryId, message: typed, requestKey };
    const checked = v.safeParse(sendCampaignInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    if (shown && shown.count === 0) {
      setProblem(CAMPAIGNS_TEXT.noAudience);
      return;
    }
    if (shown && tooLong) {
      setProblem(CAMPAIGNS_TEXT.messageTooLong(shown.room));
      return;
    }
    setProblem(null);
    send.mutate(payload);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-label="New campaign">
      <FormGroup
        title="New campaign"
        intro="One text to each shopper who switched Promotions on. It ends with a link to stop them."
      >
        {problem && <Notice tone="error">{problem}</Notice>}
        <div>
          <label htmlFor={offerId} className="text-xs font-semibold uppercase tracking-[0.16em]">
            Offer
          </label>
          <select
            id={offerId}
            className={`${inputClass} min-h-12`}
            value={promotionId ?? ''}
            onChange={(event) => setPromotionId(Number(event.target.value))}
          >
            {loaded.offers.map((offer) => (
              <option key={offer.id} value={offer.id}>
                {offer.code ? `${offer.name} (${offer.code})` : `${offer.name} (automatic)`}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={audienceId} className="text-xs font-semibold uppercase tracking-[0.16em]">
            Audience
          </label>
          <select
            id={audienceId}
            className={`${inputClass} min-h-12`}
            value={categoryId ?? ''}
            onChange={(event) =>
              setCategoryId(event.target.value === '' ? null : Number(event.target.value))
            }
          >
            <option value="">Everyone with Promotions on</option>
            {loaded.categories.map((category) => (
              <option key={category.id} value={category.id}>
                Those who bought {category.name}
              </option>
            ))}
          </select>
        </div>
        <TextArea
          label="Message"
          name="message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          placeholder="Weekend sale: 20% off every dress!"
          note={
            shown
              ? `${typed.length} of ${shown.room} characters (the code and the stop link are added).`
              : 'The code and the stop link are added.'
          }
        />
        <div
          aria-live="polite"
          data-testid="campaign-audience"
          className="border border-line bg-paper p-4 text-sm"
        >
          {audience.isError ? (
            errorMessage(audience.error, 'The audience could not be counted.')
          ) : shown ? (
            <>
              <p className="font-semibold">{CAMPAIGNS_TEXT.audience(shown.count, shown.cost)}</p>
              <p className="mt-1 text-xs text-ink-soft">
                {formatUGX(loaded.costPerText)} a text. Only shoppers who said yes to offers.
              </p>
              <p className="mt-3 text-xs font-semibold uppercase tracking-[0.16em]">
                Each shopper reads
              </p>
              <p
                data-testid="campaign-preview"
                className={`mt-1 break-words font-mono text-xs ${tooLong ? 'text-red-700' : ''}`}
              >
                {preview}
              </p>
            </>
          ) : (
            'Counting the shoppers...'
          )}
        </div>
      </FormGroup>
      <SaveButton pending={send.isPending} busy="Sending…" className="w-full sm:w-auto">
        {shown ? `Send to ${shown.count} ${shown.count === 1 ? 'shopper' : 'shoppers'}` : 'Send'}
      </SaveButton>
    </form>
  );
}

function CartReminders({ on }: { on: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const change = useMutation(
    trpc.desk.setCartReminders.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(saved.on ? CAMPAIGNS_TEXT.remindersOn : CAMPAIGNS_TEXT.remindersOff);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.campaigns.queryKey() });
      },
      onError: (error) => toast.error(errorMessage(error, 'The switch could not be saved.')),
    }),
  );
  return (
    <FormGroup
      title="Cart reminder"
      intro="One text, 24 hours after a signed-in shopper with Promotions on left pieces in her cart. Never twice for the same cart, never after she ordered."
    >
      <label className="inline-flex min-h-12 cursor-pointer items-center gap-3 text-sm">
        <input
          type="checkbox"
          checked={on}
          disabled={change.isPending}
          onChange={(event) => change.mutate({ on: event.target.checked })}
          className="size-5 accent-ink"
        />
        Send cart reminders
      </label>
    </FormGroup>
  );
}

function SentCampaigns({ loaded }: { loaded: Loaded }) {
  const names = new Map(loaded.categories.map((category) => [category.id, category.name]));
  return (
    <FormGroup title="Sent">
      {loaded.campaigns.length === 0 ? (
        <p className="text-sm text-ink-soft">No campaign yet.</p>
      ) : (
        <ul className="divide-y divide-line border-b border-line" aria-label="Campaigns sent">
          {loaded.campaigns.map((campaign) => (
            <li key={campaign.id} className="py-4 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p className="font-semibold">
                  {campaign.offer ?? 'An offer since removed'}
                  {campaign.code ? ` · ${campaign.code}` : ''}
                </p>
                <time dateTime={campaign.createdAt} className="text-xs text-ink-soft">
                  {new Date(campaign.createdAt).toLocaleString('en-GB', {
                    timeZone: 'Africa/Kampala',
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  })}
                </time>
              </div>
              <p className="mt-1 break-words text-ink-soft">{campaign.message}</p>
              <p className="mt-1 text-xs">
                {campaign.categoryId
                  ? `Bought ${names.get(campaign.categoryId) ?? 'a category'}`
                  : 'Everyone'}
                {' · '}
                {campaign.delivered} of {campaign.recipients} sent · {formatUGX(campaign.cost)}
                {campaign.actor ? ` · ${campaign.actor}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </FormGroup>
  );
}
