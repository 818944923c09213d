// "Discount or gift card code" (issue 35), on /cart and /checkout: a field and Apply, the codes
// asked for as chips (the offer's name and saving once the preview gave it, removable), and the
// preview's own text under the field for a code it cannot give.
import { Tag, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { inputClass } from '#app/components/account/ui.tsx';
import type { OfferCodes } from '#app/offer-codes-store.ts';
import { formatUGX } from '#core/money.ts';
import { appliedFor, MAX_OFFER_CODE_LENGTH, OFFER_CODE_TEXT } from '#core/offer-codes.ts';
import { type CheckoutPreview, normalCode } from '#core/offers.ts';

export function OfferCodeField({
  offerCodes,
  preview,
  checking,
  disabled,
}: {
  /** The codes asked for, as kept in the tab, and what adds and removes one. */
  offerCodes: OfferCodes;
  /** The shop's answer for them (null until it first answers): the offers given, the problems. */
  preview: CheckoutPreview | null;
  /** The preview is being asked: the chip of a new code waits for its answer. */
  checking?: boolean;
  disabled?: boolean;
}) {
  const { codes, add: onAdd, remove: onRemove } = offerCodes;
  const applied = preview?.applied ?? [];
  const problems = preview?.problems ?? [];
  const id = useId();
  const [typed, setTyped] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const problemFor = (code: string) =>
    problems.find((problem) => normalCode(problem.code) === normalCode(code));
  const shownProblems = problems.filter((problem) =>
    codes.some((code) => normalCode(code) === normalCode(problem.code)),
  );

  function apply(event: FormEvent) {
    event.preventDefault();
    const added = onAdd(typed);
    if (!added.ok) {
      setRefusal(added.message);
      return;
    }
    setRefusal(null);
    setTyped('');
  }

  // A note (a better offer applies, delivery is already free) does not refuse the order: it is
  // said quietly; a refusal in the shop's error style.
  const errors = [
    refusal,
    ...shownProblems.filter((problem) => !problem.note).map((problem) => problem.message),
  ].filter((text): text is string => !!text);
  const notes = shownProblems.filter((problem) => problem.note).map((problem) => problem.message);
  return (
    <form onSubmit={apply} className="mt-6" data-testid="offer-codes" noValidate>
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {OFFER_CODE_TEXT.label}
      </label>
      <div className="mt-2 flex gap-2">
        <input
          id={id}
          type="text"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="done"
          maxLength={MAX_OFFER_CODE_LENGTH}
          value={typed}
          disabled={disabled}
          onChange={(event) => {
            setTyped(event.target.value);
            if (refusal) setRefusal(null);
          }}
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={errors.length ? `${id}-problems` : undefined}
          className={`${inputClass.replace('mt-2 ', '')} min-w-0 flex-1 uppercase`}
        />
        <button
          type="submit"
          disabled={disabled || typed.trim() === ''}
          className="btn btn-outline shrink-0 px-5"
        >
          {OFFER_CODE_TEXT.apply}
        </button>
      </div>
      {errors.length > 0 && (
        <div id={`${id}-problems`} className="mt-1.5 space-y-1 text-sm text-danger" role="alert">
          {errors.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
      {notes.length > 0 && (
        <div className="mt-1.5 space-y-1 text-sm text-ink-soft" role="status">
          {notes.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
      {codes.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Codes applied">
          {codes.map((code) => {
            const offer = appliedFor(applied, code);
            const found = problemFor(code);
            const problem = found && !found.note ? found : undefined;
            return (
              <li
                key={code}
                data-testid="offer-chip"
                data-state={
                  offer ? 'applied' : problem ? 'refused' : found ? 'not-needed' : 'checking'
                }
                className={`inline-flex max-w-full items-center gap-2 border py-1 pr-1 pl-3 text-sm ${
                  problem ? 'border-danger/50 text-danger' : 'border-gold/60 bg-gold/10'
                }`}
              >
                <Tag size={14} aria-hidden className="shrink-0" />
                <span className="min-w-0">
                  <span className="font-semibold tracking-wide">{code}</span>
                  {offer && (
                    <span className="text-ink-soft">
                      {' · '}
                      {offer.name}
                      {offer.amount > 0 && (
                        <span className="whitespace-nowrap font-medium text-success tabular-nums">
                          {' '}
                          −{formatUGX(offer.amount)}
                        </span>
                      )}
                    </span>
                  )}
                  {!offer && !found && checking && (
                    <span className="text-ink-soft"> · {OFFER_CODE_TEXT.applying}</span>
                  )}
                </span>
                <button
                  type="button"
                  onClick={() => onRemove(code)}
                  disabled={disabled}
                  aria-label={OFFER_CODE_TEXT.remove(code)}
                  className="grid size-8 shrink-0 place-items-center hover:text-danger"
                >
                  <X size={15} aria-hidden />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </form>
  );
}
