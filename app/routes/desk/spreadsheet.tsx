// The catalogue as a spreadsheet (/desk/spreadsheet, issue 22, decision 0047): download every
// product as a CSV, edit it in a spreadsheet, import it back. The server checks the whole file
// first: a refused file's problems stay listed by row until the next try; nothing is half-saved.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Download, Upload } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { inputClass, Notice } from '#app/components/account/ui.tsx';
import { newOrderId } from '#app/components/checkout/order-attempt.ts';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { IMPORT_MAX_CHARS, type ImportSummary, SPREADSHEET_TEXT } from '#core/desk-spreadsheet.ts';

export const Route = createFileRoute('/desk/spreadsheet')({
  head: privatePageHead('Spreadsheet · Desk'),
  component: Spreadsheet,
});

type Outcome = ({ kind: 'imported' } & ImportSummary) | { kind: 'refused'; problems: string[] };

function Spreadsheet() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  // One key per chosen file: a retry after a dropped connection imports it once.
  const [requestKey, setRequestKey] = useState(newOrderId);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const importing = useMutation(trpc.desk.importProducts.mutationOptions());

  function choose(chosen: File | null) {
    setFile(chosen);
    setRequestKey(newOrderId());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setOutcome({ kind: 'refused', problems: [SPREADSHEET_TEXT.notText] });
      return;
    }
    if (file.size > IMPORT_MAX_CHARS * 2) {
      setOutcome({ kind: 'refused', problems: [SPREADSHEET_TEXT.tooLarge] });
      return;
    }
    let csv: string;
    try {
      csv = await file.text();
    } catch {
      // The file changed or moved since it was chosen (saved again in the spreadsheet).
      setOutcome({ kind: 'refused', problems: [SPREADSHEET_TEXT.chooseAgain] });
      return;
    }
    importing.mutate(
      { csv, requestKey },
      {
        onSuccess: (answer) => {
          setOutcome({ kind: 'imported', ...answer });
          setRequestKey(newOrderId());
          toast.success(SPREADSHEET_TEXT.imported);
          void queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
        },
        onError: (error) => {
          const text = errorMessage(error, 'The file could not be imported. Please try again.');
          setOutcome({ kind: 'refused', problems: text.split('\n') });
        },
      },
    );
  }

  return (
    <DeskPage title="Spreadsheet">
      <div className="mt-8 grid gap-10 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-labelledby="sheet-download">
          <h2 id="sheet-download" className="font-display text-2xl">
            The catalogue as a file
          </h2>
          <p className="mt-3 max-w-prose text-ink-soft">
            Every product, drafts and archived ones too, one row per variant: its name, status,
            kind, categories and description, then the variant’s SKU, size, colour, price,
            compare-at price and stock.
          </p>
          <p className="mt-2 max-w-prose text-ink-soft">
            Rows with a product_id update that product; rows without one make a new product, one row
            per size or colour. Change stock, not stock_at_export: sales made since the download are
            kept.
          </p>
          <a
            href="/api/desk/products.csv"
            download
            className="btn btn-outline mt-6 w-full sm:w-auto"
          >
            <Download size={16} aria-hidden />
            Download CSV
          </a>
        </section>

        <section
          aria-labelledby="sheet-import"
          className="border-t border-line pt-8 lg:border-t-0 lg:border-l lg:pt-0 lg:pl-10"
        >
          <h2 id="sheet-import" className="font-display text-2xl">
            Import
          </h2>
          <p className="mt-3 max-w-prose text-ink-soft">
            The whole file is checked first: nothing is saved unless every row is right.
          </p>
          <form onSubmit={submit} className="mt-6 space-y-5">
            <div>
              <label
                htmlFor={inputId}
                className="text-xs font-semibold uppercase tracking-[0.16em]"
              >
                CSV file
              </label>
              <input
                id={inputId}
                type="file"
                accept=".csv,text/csv"
                onChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
                className={`${inputClass} min-h-12 cursor-pointer file:mr-4 file:min-h-9 file:cursor-pointer file:border-0 file:bg-ink file:px-4 file:text-xs file:font-semibold file:uppercase file:tracking-[0.14em] file:text-paper`}
              />
            </div>
            <button
              type="submit"
              className="btn btn-primary w-full sm:w-auto"
              disabled={importing.isPending}
            >
              <Upload size={16} aria-hidden />
              {importing.isPending ? 'Importing...' : 'Import'}
            </button>
          </form>

          <div className="mt-8" aria-live="polite">
            {outcome?.kind === 'imported' && (
              <Notice tone="success">
                <p className="font-semibold tabular-nums">{SPREADSHEET_TEXT.summary(outcome)}</p>
                <p className="mt-1 tabular-nums">
                  {outcome.variants} variant{outcome.variants === 1 ? '' : 's'} in the file.
                </p>
                {outcome.changed.length > 0 && (
                  <ul aria-label="What changed" className="mt-3 space-y-2 text-sm tabular-nums">
                    {outcome.changed.map((change, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
                      <li key={index} className="border-t border-line pt-2 break-words">
                        <span className="font-semibold">{change.product}</span>:{' '}
                        {change.changes.join('; ')}
                      </li>
                    ))}
                  </ul>
                )}
              </Notice>
            )}
            {outcome?.kind === 'refused' && <Problems problems={outcome.problems} />}
          </div>
        </section>
      </div>
    </DeskPage>
  );
}

/** A refused file's problems, one per line, each naming its row; nothing was saved. */
function Problems({ problems }: { problems: string[] }) {
  const headingId = useId();
  return (
    <div role="alert" className="border border-danger/40 bg-danger/5 px-4 py-4">
      <h3 id={headingId} className="text-sm font-semibold text-danger">
        Problems in the file
      </h3>
      <p className="mt-1 text-sm text-ink-soft">
        Nothing was imported. Fix these rows and import again.
      </p>
      <ul aria-labelledby={headingId} className="mt-3 space-y-2 text-sm text-ink tabular-nums">
        {problems.map((problem, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
          <li key={index} className="border-t border-danger/20 pt-2 break-words">
            {problem}
          </li>
        ))}
      </ul>
    </div>
  );
}
