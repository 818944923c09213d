// The product editor (/desk/products/{id}; 'new' creates), made for a phone in the shop:
// sizes as toggles from the piece's size system, colours typed as chips, the variants made from
// sizes × colours with a suggested SKU, a price for all, stock per variant. A failed save keeps
// what was typed; the request key made when the form opens makes a retried save answer once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { ExternalLink, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { ProductPhotos } from '#app/components/desk/ProductPhotos.tsx';
import { statusName } from '#app/components/desk/ProductStatusBadge.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { CATALOGUE_LIMITS, DESK_CATALOGUE_TEXT } from '#core/desk-catalogue.ts';
import {
  addedColours,
  combinations,
  emptyProductForm,
  formOptions,
  type ProductForm,
  type ProductRow,
  productForm,
  productSaveInput,
  sizeChoices,
  sizesForKind,
  toggledSizes,
  withPriceForAll,
  withRow,
  withRows,
} from '#core/desk-product-form.ts';
import { PRODUCT_STATUSES } from '#core/desk-roles.ts';
import { KINDS, type Kind } from '#core/variants.ts';

export const Route = createFileRoute('/desk/products/$productId')({
  head: privatePageHead('Product · Desk'),
  component: ProductPage,
});

type Loaded = ApiOutput['desk']['product'];

const KIND_NAMES: Record<Kind, string> = {
  clothes: 'Clothes (XS–XXL)',
  shoes: 'Shoes (EU 36–46)',
  'one-size': 'One size',
};

function ProductPage() {
  const { productId } = Route.useParams();
  const trpc = useTRPC();
  const id = productId === 'new' ? null : Number(productId);
  const valid = id === null || (Number.isInteger(id) && id > 0);
  const product = useQuery({
    ...trpc.desk.product.queryOptions({ id: id ?? 0 }),
    enabled: id !== null && valid,
    // The form is made from this read: a refetch on focus would replace what is being typed.
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!valid) return <Missing />;
  if (id === null) return <Editor key="new" product={null} />;
  if (product.isPending) return <Loading text="Loading the product..." />;
  if (product.isError) {
    return (
      <DeskPageProblem title="Product" className="mt-6">
        {errorMessage(product.error, 'The product could not be loaded.')}
      </DeskPageProblem>
    );
  }
  return <Editor key={`${product.data.id}-${product.dataUpdatedAt}`} product={product.data} />;
}

function Missing() {
  return (
    <DeskPageProblem title="Product" className="mt-6">
      {DESK_CATALOGUE_TEXT.badId}
    </DeskPageProblem>
  );
}

function Editor({ product }: { product: Loaded | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categories = useQuery(trpc.catalogue.categories.queryOptions());
  const [form, setForm] = useState<ProductForm>(() =>
    product ? productForm(product) : emptyProductForm(),
  );
  // One key per form opened: a retry after a dropped connection answers the first save.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const [colour, setColour] = useState('');
  const [priceForAll, setPriceForAll] = useState('');
  const ids = useId();

  const save = useMutation(
    trpc.desk.saveProduct.mutationOptions({
      onSuccess: async (saved) => {
        setProblem(null);
        setRequestKey(crypto.randomUUID());
        toast.success(DESK_CATALOGUE_TEXT.saved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
        if (!product) {
          await navigate({
            to: '/desk/products/$productId',
            params: { productId: String(saved.id) },
          });
        }
      },
      onError: (error) =>
        setProblem(errorMessage(error, 'The product could not be saved. Please try again.')),
    }),
  );

  const update = (change: Partial<ProductForm>) =>
    setForm((current) => withRows({ ...current, ...change }));
  const setRow = (key: string, change: Partial<ProductRow>) =>
    setForm((current) => withRow(current, key, change));

  const choices = sizeChoices(form);
  const toggleSize = (size: string) => update({ sizes: toggledSizes(form, size) });
  const addColour = () => {
    if (!colour.trim()) return;
    const colours = addedColours(form, colour);
    if (colours) update({ colours });
    setColour('');
  };

  const combos = combinations(form);
  const options = formOptions(form);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setProblem(null);
    save.mutate(productSaveInput(form, { id: product?.id, requestKey }));
  }

  const legend = 'text-xs font-semibold uppercase tracking-[0.16em]';
  const toggle =
    'inline-flex min-h-11 min-w-11 items-center justify-center border px-3 text-sm font-medium tabular-nums aria-pressed:border-ink aria-pressed:bg-ink aria-pressed:text-paper border-line text-ink hover:border-ink';

  return (
    <DeskPage
      eyebrow="Products"
      title={product ? product.name : 'New product'}
      action={
        product?.status === 'published' ? (
          <a
            href={`/products/${product.slug}`}
            className="btn btn-outline min-h-11"
            target="_blank"
            rel="noreferrer"
          >
            View in shop <ExternalLink size={16} aria-hidden />
          </a>
        ) : undefined
      }
    >
      <p className="mt-4 text-sm">
        <Link
          to="/desk/products"
          className="text-ink-soft underline underline-offset-4 hover:text-ink"
        >
          All products
        </Link>
      </p>
      <form
        onSubmit={submit}
        noValidate
        className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start"
      >
        <div className="grid gap-8">
          <section aria-labelledby={`${ids}-about`} className="grid gap-5">
            <h2 id={`${ids}-about`} className="font-display text-2xl">
              The piece
            </h2>
            <div>
              <label htmlFor={`${ids}-name`} className={legend}>
                Name
              </label>
              <input
                id={`${ids}-name`}
                value={form.name}
                onChange={(e) => update({ name: e.target.value })}
                maxLength={CATALOGUE_LIMITS.name}
                required
                autoComplete="off"
                className={inputClass}
              />
            </div>
            <div>
              <label htmlFor={`${ids}-description`} className={legend}>
                Description
              </label>
              <textarea
                id={`${ids}-description`}
                value={form.description}
                onChange={(e) => update({ description: e.target.value })}
                maxLength={CATALOGUE_LIMITS.description}
                rows={5}
                className={inputClass}
              />
            </div>
            <fieldset>
              <legend className={legend}>Categories</legend>
              {categories.isError ? (
                <p className="mt-2 text-sm text-danger">The categories could not be loaded.</p>
              ) : (
                <div className="mt-2 flex flex-wrap gap-2">
                  {(categories.data ?? []).map((category) => (
                    <label
                      key={category.id}
                      className="inline-flex min-h-11 cursor-pointer items-center gap-2 border border-line px-3 text-sm has-[:checked]:border-ink"
                    >
                      <input
                        type="checkbox"
                        checked={form.categoryIds.includes(category.id)}
                        onChange={(e) =>
                          update({
                            categoryIds: e.target.checked
                              ? [...form.categoryIds, category.id]
                              : form.categoryIds.filter((c) => c !== category.id),
                          })
                        }
                        className="size-4 accent-[var(--color-ink)]"
                      />
                      {category.name}
                    </label>
                  ))}
                </div>
              )}
            </fieldset>
          </section>

          <section aria-labelledby={`${ids}-options`} className="grid gap-5">
            <h2 id={`${ids}-options`} className="font-display text-2xl">
              Sizes and colours
            </h2>
            <div>
              <label htmlFor={`${ids}-kind`} className={legend}>
                Size system
              </label>
              <select
                id={`${ids}-kind`}
                value={form.kind}
                onChange={(e) => {
                  const kind = e.target.value as Kind;
                  update({ kind, sizes: sizesForKind(form, kind) });
                }}
                className={`${inputClass} min-h-11`}
              >
                {KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {KIND_NAMES[kind]}
                  </option>
                ))}
              </select>
            </div>
            {choices.length > 0 && (
              <fieldset>
                <legend className={legend}>Sizes</legend>
                <div className="mt-2 flex flex-wrap gap-2">
                  {choices.map((size) => (
                    <button
                      key={size}
                      type="button"
                      aria-pressed={form.sizes.includes(size)}
                      onClick={() => toggleSize(size)}
                      className={toggle}
                    >
                      {size}
                    </button>
                  ))}
                </div>
              </fieldset>
            )}
            <div>
              <label htmlFor={`${ids}-colour`} className={legend}>
                Add a colour
              </label>
              <div className="mt-2 flex gap-2">
                <input
                  id={`${ids}-colour`}
                  value={colour}
                  onChange={(e) => setColour(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      addColour();
                    }
                  }}
                  maxLength={CATALOGUE_LIMITS.optionValue}
                  placeholder="Indigo"
                  autoComplete="off"
                  className={`${inputClass} mt-0`}
                />
                <button
                  type="button"
                  onClick={addColour}
                  className="btn btn-outline min-h-11 shrink-0"
                >
                  Add colour
                </button>
              </div>
              {form.colours.length > 0 && (
                <ul aria-label="Colours" className="mt-3 flex flex-wrap gap-2">
                  {form.colours.map((c) => (
                    <li
                      key={c}
                      className="inline-flex min-h-11 items-center gap-1 border border-line pl-3 text-sm"
                    >
                      {c}
                      <button
                        type="button"
                        aria-label={`Remove ${c}`}
                        onClick={() => update({ colours: form.colours.filter((x) => x !== c) })}
                        className="grid size-11 place-items-center text-ink-soft hover:text-ink"
                      >
                        <X size={16} aria-hidden />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </section>

          <section aria-labelledby={`${ids}-variants`} className="grid gap-5">
            <div className="flex flex-wrap items-end justify-between gap-4">
              <h2 id={`${ids}-variants`} className="font-display text-2xl">
                {combos.length === 1 && options.length === 0
                  ? 'Price and stock'
                  : `Variants (${combos.length})`}
              </h2>
              {combos.length > 1 && (
                <div className="flex items-end gap-2">
                  <div>
                    <label htmlFor={`${ids}-all`} className={legend}>
                      Price for all
                    </label>
                    <input
                      id={`${ids}-all`}
                      inputMode="numeric"
                      value={priceForAll}
                      onChange={(e) => setPriceForAll(e.target.value)}
                      placeholder="UGX"
                      className={`${inputClass} w-36 tabular-nums`}
                    />
                  </div>
                  <button
                    type="button"
                    className="btn btn-outline min-h-11"
                    onClick={() => setForm((current) => withPriceForAll(current, priceForAll))}
                  >
                    Apply
                  </button>
                </div>
              )}
            </div>
            <ul className="grid gap-3">
              {combos.map(({ key, label }, index) => {
                const row = form.rows[key];
                if (!row) return null;
                const named = (what: string) => (
                  <>
                    {what}
                    {label && <span className="sr-only"> for {label}</span>}
                  </>
                );
                const field = (suffix: string) => `${ids}-${suffix}-${index}`;
                return (
                  <li key={key} className="border border-line p-4">
                    <div className="flex items-baseline justify-between gap-3">
                      <p className="font-medium">{label || 'The piece'}</p>
                      {row.id !== undefined && (
                        <a
                          href={`/desk/stock?variant=${row.id}`}
                          className="inline-flex min-h-11 items-center text-sm text-ink-soft underline underline-offset-4 hover:text-ink"
                        >
                          Stock log{label && <span className="sr-only"> for {label}</span>}
                        </a>
                      )}
                    </div>
                    <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
                      <div>
                        <label htmlFor={field('sku')} className="text-xs text-ink-soft">
                          {named('SKU')}
                        </label>
                        <input
                          id={field('sku')}
                          value={row.sku}
                          onChange={(e) =>
                            setRow(key, { sku: e.target.value.toUpperCase(), skuTouched: true })
                          }
                          maxLength={CATALOGUE_LIMITS.sku}
                          autoCapitalize="characters"
                          autoComplete="off"
                          className={`${inputClass} mt-1`}
                        />
                      </div>
                      <div className="sm:order-last">
                        <label htmlFor={field('stock')} className="text-xs text-ink-soft">
                          {named('Stock')}
                        </label>
                        <input
                          id={field('stock')}
                          inputMode="numeric"
                          value={row.stock}
                          onChange={(e) => setRow(key, { stock: e.target.value })}
                          className={`${inputClass} mt-1 tabular-nums`}
                        />
                      </div>
                      <div>
                        <label htmlFor={field('price')} className="text-xs text-ink-soft">
                          {named('Price')}
                        </label>
                        <input
                          id={field('price')}
                          inputMode="numeric"
                          value={row.price}
                          onChange={(e) => setRow(key, { price: e.target.value })}
                          placeholder="UGX"
                          className={`${inputClass} mt-1 tabular-nums`}
                        />
                      </div>
                      <div>
                        <label htmlFor={field('compare')} className="text-xs text-ink-soft">
                          {named('Compare-at price')}
                        </label>
                        <input
                          id={field('compare')}
                          inputMode="numeric"
                          value={row.compareAtPrice}
                          onChange={(e) => setRow(key, { compareAtPrice: e.target.value })}
                          placeholder="Optional"
                          className={`${inputClass} mt-1 tabular-nums`}
                        />
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        </div>

        <aside className="grid gap-5 border border-line bg-paper p-5 lg:sticky lg:top-4">
          <div>
            <p id={`${ids}-status`} className={legend}>
              Status
            </p>
            <div role="radiogroup" aria-labelledby={`${ids}-status`} className="mt-2 grid gap-2">
              {PRODUCT_STATUSES.map((status) => (
                <label
                  key={status}
                  className="flex min-h-11 cursor-pointer items-center gap-3 border border-line px-3 text-sm has-[:checked]:border-ink has-[:checked]:font-medium"
                >
                  <input
                    type="radio"
                    name={`${ids}-status`}
                    value={status}
                    checked={form.status === status}
                    onChange={() => update({ status })}
                    className="size-4 accent-[var(--color-ink)]"
                  />
                  {statusName(status)}
                  <span className="ml-auto text-xs text-ink-soft">
                    {status === 'draft'
                      ? 'Only the desk sees it'
                      : status === 'published'
                        ? 'On sale'
                        : 'Hidden, kept'}
                  </span>
                </label>
              ))}
            </div>
          </div>
          <label className="flex min-h-11 cursor-pointer items-start gap-3 border-t border-line pt-4 text-sm">
            <input
              type="checkbox"
              role="switch"
              aria-checked={form.returnable}
              checked={form.returnable}
              onChange={(e) => update({ returnable: e.target.checked })}
              aria-describedby={`${ids}-returnable-note`}
              className="mt-0.5 size-5 shrink-0 accent-[var(--color-ink)]"
            />
            <span>
              <span className="block font-medium">{DESK_CATALOGUE_TEXT.returnable}</span>
              <span id={`${ids}-returnable-note`} className="block text-xs text-ink-soft">
                {form.returnable
                  ? DESK_CATALOGUE_TEXT.returnableNote
                  : DESK_CATALOGUE_TEXT.notReturnableNote}
              </span>
            </span>
          </label>
          {problem && <Notice tone="error">{problem}</Notice>}
          <SaveButton pending={save.isPending} busy="Saving..." className="w-full">
            Save product
          </SaveButton>
        </aside>
      </form>
      {product && (
        <div className="mt-10">
          <ProductPhotos productId={product.id} />
        </div>
      )}
    </DeskPage>
  );
}
