import { Link, type LinkProps, useHydrated } from '@tanstack/react-router';
import { SlidersHorizontal, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { activeFilterCount, type ListingFilters, type ListingSort, SORTS } from '#core/listing.ts';
import { FILTER_TEXT } from '#core/listing-text.ts';
import { formFields } from './listing-url';

type FacetValue = { value: string; count: number };
export type FilterBarProps = {
  /** The page the GET form submits to: the same URL, with the filters in it. */
  action: '/products' | '/search';
  /** What the listing is besides its filters (category, group, q), kept by the form. */
  keep: Record<string, string | number | undefined>;
  filters: ListingFilters;
  sort: ListingSort;
  facets: { sizes: FacetValue[]; colours: FacetValue[] };
  /** "Clear filters": the listing without them. */
  clear: LinkProps;
  /** With JavaScript: the submitted fields, to navigate to without a reload. */
  onApply: (fields: Record<string, string>) => void;
};

/** Swatches for the colours the shop names; any other colour is a chip without one. */
const SWATCHES: Record<string, string> = {
  Black: '#1d1a16',
  Blush: '#e8b4a8',
  Burgundy: '#6d1f2f',
  Camel: '#c19a6b',
  Charcoal: '#3b3a38',
  Cobalt: '#1f4fa3',
  Emerald: '#1f7a52',
  Indigo: '#33407a',
  Ivory: '#f6f0e0',
  Marigold: '#e9a21f',
  Midnight: '#1b2233',
  Natural: '#e4d8c0',
  Navy: '#1f2a4d',
  Ochre: '#c7862b',
  Olive: '#6b6b2e',
  Red: '#b3261e',
  Saffron: '#f2a900',
  Sage: '#9caf88',
  Sand: '#d8c3a0',
  Tan: '#b98b5e',
  Terracotta: '#b8553a',
  White: '#ffffff',
};

/**
 * The filter bar of /products and /search: size and colour chips (radio groups), a price range,
 * "In stock only" and the sort. A GET form to the same URL, so it works before (or without)
 * JavaScript; with it, the route navigates without a reload. At desktop width it is inline and a
 * choice applies at once; on a phone it opens as a sheet from the bottom, applied with Apply.
 */
export function FilterBar(props: FilterBarProps) {
  const hydrated = useHydrated();
  const active = activeFilterCount(props.filters);
  const state = JSON.stringify([props.filters, props.sort, props.keep]);
  return (
    <section aria-label="Filters and sort" className="mb-10">
      <div className="md:hidden">
        {hydrated ? (
          <FilterSheet {...props} active={active} key={state} />
        ) : (
          // Before JavaScript: the same form, opened in place.
          <details className="border-b border-line">
            <summary className="flex min-h-12 cursor-pointer items-center gap-2 text-sm font-semibold uppercase tracking-[0.14em]">
              <SlidersHorizontal size={16} aria-hidden /> Filters
              {active > 0 && <span>({active})</span>}
            </summary>
            <FilterForm {...props} layout="sheet" />
          </details>
        )}
      </div>
      <div className="hidden md:block">
        <FilterForm {...props} layout="inline" key={state} />
      </div>
    </section>
  );
}

function FilterSheet(props: FilterBarProps & { active: number }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const sheet = dialog.current;
    if (!sheet) return;
    if (open && !sheet.open) sheet.showModal();
    if (!open && sheet.open) sheet.close();
  }, [open]);
  return (
    <>
      <div className="flex items-center justify-between gap-3 border-b border-line pb-3">
        <button
          type="button"
          className="btn btn-outline px-4"
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
        >
          <SlidersHorizontal size={16} aria-hidden />
          Filters
          {props.active > 0 && (
            <span className="grid min-w-5 place-items-center rounded-full bg-ink px-1.5 text-[0.7rem] leading-5 tracking-normal text-paper">
              {props.active}
              <span className="sr-only"> active</span>
            </span>
          )}
        </button>
        <p className="text-xs uppercase tracking-[0.14em] text-ink-soft">{SORTS[props.sort]}</p>
      </div>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes the native dialog; the click is a backdrop convenience. */}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={() => setOpen(false)}
        onClick={(event) => event.target === dialog.current && setOpen(false)}
        className="fixed inset-x-0 bottom-0 m-0 mt-auto max-h-[88dvh] w-full max-w-none overflow-y-auto rounded-t-2xl bg-paper p-0 text-ink shadow-2xl backdrop:bg-black/55 backdrop:backdrop-blur-[2px]"
      >
        <div className="sticky top-0 z-10 flex items-center justify-between border-b border-line bg-paper px-5 py-3">
          <h2 id={titleId} className="font-display text-3xl font-medium">
            Filters
          </h2>
          <button
            type="button"
            onClick={() => setOpen(false)}
            className="grid size-11 place-items-center hover:text-accent"
            aria-label="Close filters"
          >
            <X size={22} aria-hidden />
          </button>
        </div>
        {open && (
          <FilterForm
            {...props}
            layout="sheet"
            onApply={(fields) => {
              setOpen(false);
              props.onApply(fields);
            }}
            onClear={() => setOpen(false)}
          />
        )}
      </dialog>
    </>
  );
}

function FilterForm({
  action,
  keep,
  filters,
  sort,
  facets,
  clear,
  onApply,
  onClear,
  layout,
}: FilterBarProps & { layout: 'inline' | 'sheet'; onClear?: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const inline = layout === 'inline';
  const priceId = useId();
  const [priceError, setPriceError] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = formFields(event.currentTarget);
    const min = Number(fields.minPrice ?? Number.NaN);
    const max = Number(fields.maxPrice ?? Number.NaN);
    if (min > max) {
      setPriceError(FILTER_TEXT.priceOrder);
      return;
    }
    setPriceError('');
    onApply(fields);
  };
  // At desktop width a chip, the toggle or the sort applies at once.
  const applyNow = inline ? () => form.current?.requestSubmit() : undefined;
  const sizes = withChosen(facets.sizes, filters.size);
  const colours = withChosen(facets.colours, filters.colour);
  return (
    <form
      ref={form}
      method="get"
      action={action}
      onSubmit={submit}
      className={inline ? 'grid gap-5 border-b border-line pb-6' : 'grid gap-7 px-5 pt-5'}
    >
      {Object.entries(keep).map(([name, value]) =>
        value === undefined || value === '' ? null : (
          <input key={name} type="hidden" name={name} value={String(value)} />
        ),
      )}
      <div className={inline ? 'grid gap-4' : 'grid gap-7'}>
        {sizes.length > 0 && (
          <ChipGroup
            legend="Size"
            name="size"
            values={sizes}
            chosen={filters.size}
            onChange={applyNow}
            inline={inline}
          />
        )}
        {colours.length > 0 && (
          <ChipGroup
            legend="Colour"
            name="colour"
            values={colours}
            chosen={filters.colour}
            onChange={applyNow}
            inline={inline}
            swatches
          />
        )}
      </div>
      <div
        className={
          inline
            ? 'flex flex-wrap items-end gap-x-8 gap-y-4 border-t border-line pt-5'
            : 'grid gap-7'
        }
      >
        <fieldset aria-describedby={priceError ? priceId : undefined}>
          <legend className="eyebrow mb-2">Price (UGX)</legend>
          <div className="flex items-center gap-2">
            <PriceInput name="minPrice" label="Lowest price" value={filters.minPrice} />
            <span aria-hidden className="text-ink-soft">
              –
            </span>
            <PriceInput name="maxPrice" label="Highest price" value={filters.maxPrice} />
          </div>
          {priceError && (
            <p id={priceId} role="alert" className="mt-2 text-sm text-danger">
              {priceError}
            </p>
          )}
        </fieldset>
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
          <input
            type="checkbox"
            name="inStock"
            value="1"
            defaultChecked={filters.inStock === true}
            onChange={applyNow}
            className="peer sr-only"
          />
          <span
            aria-hidden
            className="relative h-6 w-11 shrink-0 rounded-full border border-line bg-paper-2 transition-colors after:absolute after:top-0.5 after:left-0.5 after:size-[1.15rem] after:rounded-full after:bg-ink-soft after:transition-transform peer-checked:border-ink peer-checked:bg-ink peer-checked:after:translate-x-5 peer-checked:after:bg-paper peer-focus-visible:outline-2 peer-focus-visible:outline-offset-3 peer-focus-visible:outline-accent"
          />
          In stock only
        </label>
        <label className="grid gap-2 text-sm">
          <span className="eyebrow">Sort by</span>
          <select
            name="sort"
            defaultValue={sort}
            onChange={applyNow}
            className="min-h-11 border border-line bg-paper px-3 pr-8 text-ink outline-none focus:border-ink"
          >
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <div
          className={
            inline
              ? 'ml-auto flex items-center gap-5'
              : 'sticky bottom-0 -mx-5 grid auto-cols-fr grid-flow-col gap-3 border-t border-line bg-paper px-5 py-4'
          }
        >
          {activeFilterCount(filters) > 0 || sort !== 'newest' ? (
            <Link
              {...clear}
              onClick={onClear}
              className={
                inline
                  ? 'text-sm underline underline-offset-4 hover:text-accent'
                  : 'btn btn-outline'
              }
            >
              {inline ? FILTER_TEXT.clear : 'Clear'}
            </Link>
          ) : null}
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
        </div>
      </div>
    </form>
  );
}

/** The chosen value stays a chip even when nothing has it now, so it can be unchosen. */
function withChosen(values: FacetValue[], chosen: string | undefined): FacetValue[] {
  if (chosen === undefined || values.some((v) => v.value === chosen)) return values;
  return [{ value: chosen, count: 0 }, ...values];
}

function ChipGroup({
  legend,
  name,
  values,
  chosen,
  onChange,
  inline,
  swatches = false,
}: {
  legend: 'Size' | 'Colour';
  name: string;
  values: FacetValue[];
  chosen: string | undefined;
  onChange?: () => void;
  inline: boolean;
  swatches?: boolean;
}) {
  const chip =
    'flex min-h-10 min-w-11 cursor-pointer items-center justify-center gap-2 border border-line px-3 text-sm transition-colors hover:border-ink peer-checked:border-ink peer-checked:bg-ink peer-checked:text-paper peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent';
  return (
    <fieldset className={inline ? 'flex flex-wrap items-center gap-x-4 gap-y-2' : ''}>
      <legend className={`eyebrow ${inline ? 'float-left mr-2 w-16' : 'mb-3'}`}>{legend}</legend>
      <div className="flex flex-wrap gap-2">
        <label>
          <input
            type="radio"
            name={name}
            value=""
            defaultChecked={chosen === undefined}
            onChange={onChange}
            className="peer sr-only"
          />
          <span className={chip}>Any</span>
        </label>
        {values.map(({ value, count }) => (
          <label key={value}>
            <input
              type="radio"
              name={name}
              value={value}
              defaultChecked={chosen === value}
              onChange={onChange}
              className="peer sr-only"
            />
            <span className={chip}>
              {swatches && SWATCHES[value] && (
                <span
                  aria-hidden
                  className="size-3.5 shrink-0 rounded-full ring-1 ring-ink-soft/40 ring-offset-1 ring-offset-paper"
                  style={{ background: SWATCHES[value] }}
                />
              )}
              {value}
              <span className="text-xs opacity-70">
                <span className="sr-only">, </span>
                {count}
                <span className="sr-only">{count === 1 ? ' piece' : ' pieces'}</span>
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PriceInput({ name, label, value }: { name: string; label: string; value?: number }) {
  return (
    <input
      type="number"
      name={name}
      aria-label={label}
      placeholder={name === 'minPrice' ? 'Min' : 'Max'}
      inputMode="numeric"
      min={0}
      step={1}
      defaultValue={value}
      className="min-h-11 w-32 min-w-0 flex-1 border border-line bg-paper px-3 text-ink outline-none placeholder:text-ink-soft focus:border-ink md:w-28 md:flex-none"
    />
  );
}
