// The home page on the desk (/desk/home, issue 34, decision 0078; desk.homeSlides /
// desk.saveHomeSlides, desk.categories / desk.saveCategories): the hero's slides as cards (a
// preview of the slide as shoppers see it, its title, words, button and link, a picture chosen
// from the shop's own photos), moved up and down, added and removed; then the categories as a
// list (renamed, moved, a picture, added, an empty one removed). Each part saves whole with its
// own request key: a double tap is one save.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ArrowDown, ArrowUp, ImageIcon, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import * as v from 'valibot';
import { Field, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { ProductImage } from '#app/components/ProductImage.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import {
  CATEGORY_NAME_MAX,
  categoryInput,
  DESK_HOME_TEXT,
  LINK_MAX,
  moved,
  SLIDE_LABEL_MAX,
  SLIDE_TITLE_MAX,
  SLIDE_WORDS_MAX,
  saveCategoriesInput,
  saveHomeSlidesInput,
  slideInput,
} from '#core/desk-home.ts';
import { artFor, SLIDES_MAX } from '#core/home-slides.ts';

export const Route = createFileRoute('/desk/home')({
  head: privatePageHead('Home page · Desk'),
  component: HomeDesk,
});

type Slides = ApiOutput['desk']['homeSlides'];
type Categories = ApiOutput['desk']['categories'];
type Picture = Slides['pictures'][number];

function HomeDesk() {
  const trpc = useTRPC();
  const slides = useQuery(trpc.desk.homeSlides.queryOptions());
  const categories = useQuery(trpc.desk.categories.queryOptions());
  if (slides.isPending || categories.isPending) return <Loading text="Loading the home page..." />;
  if (slides.isError || categories.isError) {
    return (
      <DeskPageProblem title={DESK_HOME_TEXT.title}>
        {errorMessage(slides.error ?? categories.error, 'The home page could not be loaded.')}
      </DeskPageProblem>
    );
  }
  return (
    <DeskPage title={DESK_HOME_TEXT.title}>
      <div className="mt-8 grid gap-12 xl:grid-cols-[minmax(0,1fr)_26rem] xl:items-start">
        {/* Each form takes what was saved back after its save (new items with their ids) and a
            new request key; neither is remounted, so the other keeps what is typed in it. */}
        <SlidesForm loaded={slides.data} />
        <CategoriesForm loaded={categories.data} />
      </div>
    </DeskPage>
  );
}

/** The queries a save changes: its own part of the desk (the other part's form keeps what is
 * typed in it), and what the shop shows of it. */
function useAfterSave(part: 'slides' | 'categories') {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys =
    part === 'slides'
      ? [trpc.desk.homeSlides.queryKey(), trpc.catalogue.home.queryKey()]
      : [trpc.desk.categories.queryKey(), trpc.catalogue.categories.queryKey()];
  return async () => {
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}

/**
 * A list form's save (the slides, the categories): one request key per save (a double tap is one
 * save), the problem shown at the form, the toast, and the drafts read back once the shop's
 * answers are fresh.
 */
function useListSave(
  part: 'slides' | 'categories',
  savedText: string,
  failedText: string,
  reread: () => void,
) {
  const afterSave = useAfterSave(part);
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const saved = {
    onSuccess: async () => {
      setProblem(null);
      toast.success(savedText);
      setRequestKey(crypto.randomUUID());
      await afterSave();
      reread();
    },
    onError: (error: unknown) => {
      const text = errorMessage(error, failedText);
      setProblem(text);
      toast.error(text);
    },
  };
  return { requestKey, problem, setProblem, saved };
}

type SlideDraft = {
  key: string;
  id?: number;
  title: string;
  words: string;
  linkLabel: string;
  linkUrl: string;
  imageUrl: string | null;
  art: string | null;
};

const slideDraft = (slide: Slides['slides'][number]): SlideDraft => ({
  ...slide,
  key: String(slide.id),
});

function SlidesForm({ loaded }: { loaded: Slides }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<SlideDraft[]>(() => loaded.slides.map(slideDraft));
  const { requestKey, problem, setProblem, saved } = useListSave(
    'slides',
    DESK_HOME_TEXT.slidesSaved,
    'The slides could not be saved. Try again.',
    () => {
      const reread = queryClient.getQueryData(trpc.desk.homeSlides.queryKey());
      if (reread) setDrafts(reread.slides.map(slideDraft));
    },
  );
  const save = useMutation(trpc.desk.saveHomeSlides.mutationOptions(saved));
  const change = (key: string, patch: Partial<SlideDraft>) =>
    setDrafts((now) => now.map((d) => (d.key === key ? { ...d, ...patch } : d)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const slides = drafts.map((d) => ({
      ...(d.id === undefined ? {} : { id: d.id }),
      title: d.title,
      words: d.words,
      linkLabel: d.linkLabel,
      linkUrl: d.linkUrl,
      imageUrl: d.imageUrl,
    }));
    for (const [index, slide] of slides.entries()) {
      const checked = v.safeParse(slideInput, slide);
      if (!checked.success) {
        setProblem(`${slide.title.trim() || `Slide ${index + 1}`}: ${checked.issues[0].message}`);
        return;
      }
    }
    const payload = { requestKey, slides };
    const checked = v.safeParse(saveHomeSlidesInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload);
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="slides-title"
      data-testid="desk-home-slides"
      className="min-w-0 space-y-6"
    >
      <SectionHeading id="slides-title" title={DESK_HOME_TEXT.slides}>
        The big pictures at the top of the home page, in this order. Shoppers see them fade one to
        the next every five seconds.
      </SectionHeading>
      <ol className="space-y-6">
        {drafts.map((draft, index) => (
          <li key={draft.key}>
            <SlideCard
              draft={draft}
              index={index}
              count={drafts.length}
              pictures={loaded.pictures}
              onChange={(patch) => change(draft.key, patch)}
              onMove={(by) => setDrafts((now) => moved(now, index, by))}
              onRemove={() => setDrafts((now) => now.filter((d) => d.key !== draft.key))}
            />
          </li>
        ))}
      </ol>
      {drafts.length < SLIDES_MAX && (
        <button
          type="button"
          className="btn btn-outline min-h-12 w-full sm:w-auto"
          onClick={() =>
            setDrafts((now) => [
              ...now,
              {
                key: crypto.randomUUID(),
                title: '',
                words: '',
                linkLabel: 'Shop Now',
                linkUrl: '/shop',
                imageUrl: null,
                art: artFor(now.length),
              },
            ])
          }
        >
          <Plus size={16} aria-hidden /> Add a slide
        </button>
      )}
      {problem && <Notice tone="error">{problem}</Notice>}
      <SaveButton pending={save.isPending} className="w-full sm:w-auto">
        Save slides
      </SaveButton>
    </form>
  );
}

function SectionHeading({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <h2 id={id} className="font-display text-3xl">
        {title}
      </h2>
      <p className="mt-2 max-w-prose text-sm text-ink-soft">{children}</p>
    </div>
  );
}

function SlideCard({
  draft,
  index,
  count,
  pictures,
  onChange,
  onMove,
  onRemove,
}: {
  draft: SlideDraft;
  index: number;
  count: number;
  pictures: Picture[];
  onChange: (patch: Partial<SlideDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const name = `Slide ${index + 1}`;
  return (
    <fieldset className="min-w-0 border border-line bg-paper" data-testid="desk-slide">
      <legend className="sr-only">{name}</legend>
      {/* The slide as shoppers see it, from what is typed. */}
      <div
        className="relative grid min-h-44 grid-cols-[minmax(0,1fr)_40%] overflow-hidden bg-paper-2"
        data-testid="slide-preview"
      >
        <div className="flex flex-col justify-center p-4 sm:p-6">
          <p className="text-[0.65rem] font-semibold tracking-[0.2em] text-ink-soft uppercase">
            {name} of {count}
          </p>
          <p className="mt-2 font-display text-2xl leading-tight break-words sm:text-3xl">
            {draft.title || 'Title'}
          </p>
          {draft.words && (
            <p className="mt-2 line-clamp-3 text-xs text-ink-soft sm:text-sm">{draft.words}</p>
          )}
          <span className="btn btn-primary mt-3 self-start px-3 py-1.5 text-xs">
            {draft.linkLabel || 'Button'}
          </span>
        </div>
        <div className="relative">
          {draft.imageUrl ? (
            <ProductImage
              src={draft.imageUrl}
              widths={pictures.find((p) => p.url === draft.imageUrl)?.widths ?? []}
              sizes="200px"
              alt=""
              fill
            />
          ) : (
            <>
              <img
                src={draft.art ?? artFor(index)}
                alt=""
                className="absolute inset-0 size-full object-cover object-right"
              />
              <span className="absolute right-2 bottom-2 left-2 bg-paper/90 px-2 py-1 text-[0.65rem] leading-tight text-ink-soft">
                The newest pictured piece shows here
              </span>
            </>
          )}
        </div>
      </div>
      <div className="grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 sm:p-6">
        <Field
          label="Title"
          value={draft.title}
          maxLength={SLIDE_TITLE_MAX}
          autoComplete="off"
          placeholder="e.g. New Collection"
          onChange={(event) => onChange({ title: event.target.value })}
          className="sm:col-span-2"
        />
        <TextArea
          label="Words"
          rows={2}
          maxLength={SLIDE_WORDS_MAX}
          value={draft.words}
          onChange={(event) => onChange({ words: event.target.value })}
          note="A sentence under the title."
          className="sm:col-span-2"
        />
        <Field
          label="Button"
          value={draft.linkLabel}
          maxLength={SLIDE_LABEL_MAX}
          autoComplete="off"
          onChange={(event) => onChange({ linkLabel: event.target.value })}
        />
        <Field
          label="Link"
          value={draft.linkUrl}
          maxLength={LINK_MAX}
          autoComplete="off"
          inputMode="url"
          note="A page of this shop: /shop, /products?category=3"
          onChange={(event) => onChange({ linkUrl: event.target.value })}
        />
        <PicturePicker
          label={`Picture for ${name}`}
          value={draft.imageUrl}
          pictures={pictures}
          none="The newest pictured piece"
          onChange={(imageUrl) => onChange({ imageUrl })}
          className="sm:col-span-2"
        />
      </div>
      <ItemActions
        name={name}
        index={index}
        count={count}
        onMove={onMove}
        onRemove={count > 1 ? onRemove : undefined}
        removeLabel="Remove slide"
      />
    </fieldset>
  );
}

/** Up, down and remove for a card or a row; each names what it moves for a screen reader. */
function ItemActions({
  name,
  index,
  count,
  onMove,
  onRemove,
  removeLabel,
  removeNote,
}: {
  name: string;
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove?: () => void;
  removeLabel: string;
  removeNote?: string;
}) {
  const small =
    'inline-flex min-h-11 items-center gap-1.5 border border-line px-3 text-sm hover:bg-paper-2 disabled:opacity-40 disabled:hover:bg-transparent';
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-line px-4 py-3 sm:px-6">
      <button
        type="button"
        className={small}
        disabled={index === 0}
        onClick={() => onMove(-1)}
        aria-label={`Move ${name} up`}
      >
        <ArrowUp size={16} aria-hidden /> Up
      </button>
      <button
        type="button"
        className={small}
        disabled={index === count - 1}
        onClick={() => onMove(1)}
        aria-label={`Move ${name} down`}
      >
        <ArrowDown size={16} aria-hidden /> Down
      </button>
      {onRemove ? (
        <button
          type="button"
          className={`${small} ml-auto text-danger`}
          onClick={onRemove}
          aria-label={`${removeLabel}: ${name}`}
        >
          <Trash2 size={16} aria-hidden /> Remove
        </button>
      ) : (
        removeNote && <span className="ml-auto text-xs text-ink-soft">{removeNote}</span>
      )}
    </div>
  );
}

/**
 * The shop's own photos to choose from (the newest pieces'), as a row of thumbnails behind a
 * disclosure, and "none" first. Only these can be saved (the server checks it too).
 */
function PicturePicker({
  label,
  value,
  pictures,
  none,
  onChange,
  className = '',
}: {
  label: string;
  value: string | null;
  pictures: Picture[];
  none: string;
  onChange: (url: string | null) => void;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const chosen = pictures.find((p) => p.url === value);
  return (
    <div className={className}>
      <p className="text-xs font-semibold uppercase tracking-[0.16em]">Picture</p>
      <div className="mt-2 flex min-w-0 flex-wrap items-center gap-3">
        <span className="min-w-0 flex-1 truncate text-sm text-ink-soft">
          {value ? (chosen ? chosen.product : 'A photo of the shop') : none}
        </span>
        <button
          type="button"
          className="inline-flex min-h-11 items-center gap-2 border border-line px-3 text-sm hover:bg-paper-2"
          aria-expanded={open}
          aria-label={`Choose the ${label.toLowerCase()}`}
          onClick={() => setOpen((now) => !now)}
        >
          <ImageIcon size={16} aria-hidden /> {open ? 'Close' : 'Choose'}
        </button>
      </div>
      {open && (
        <fieldset className="mt-3 min-w-0">
          <legend className="sr-only">{label}</legend>
          <div className="grid grid-cols-4 gap-2 sm:grid-cols-6">
            <button
              type="button"
              aria-pressed={value === null}
              onClick={() => {
                onChange(null);
                setOpen(false);
              }}
              className="grid aspect-[4/5] place-items-center border border-line bg-paper-2 p-1 text-center text-[0.65rem] leading-tight text-ink-soft aria-pressed:border-2 aria-pressed:border-ink"
            >
              None
            </button>
            {pictures.map((picture) => (
              <button
                key={picture.url}
                type="button"
                aria-pressed={value === picture.url}
                aria-label={`${picture.product}: ${picture.alt}`}
                onClick={() => {
                  onChange(picture.url);
                  setOpen(false);
                }}
                className="relative aspect-[4/5] overflow-hidden border border-line aria-pressed:border-2 aria-pressed:border-ink"
              >
                <ProductImage src={picture.url} widths={picture.widths} sizes="96px" alt="" fill />
              </button>
            ))}
          </div>
          {pictures.length === 0 && (
            <p className="mt-2 text-sm text-ink-soft">
              No photos yet: add some to a product first.
            </p>
          )}
        </fieldset>
      )}
    </div>
  );
}

type CategoryDraft = {
  key: string;
  id?: number;
  name: string;
  imageUrl: string | null;
  pieces: number;
};

const categoryDraft = (category: Categories['categories'][number]): CategoryDraft => ({
  ...category,
  key: String(category.id),
});

function CategoriesForm({ loaded }: { loaded: Categories }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<CategoryDraft[]>(() => loaded.categories.map(categoryDraft));
  const { requestKey, problem, setProblem, saved } = useListSave(
    'categories',
    DESK_HOME_TEXT.categoriesSaved,
    'The categories could not be saved. Try again.',
    () => {
      const reread = queryClient.getQueryData(trpc.desk.categories.queryKey());
      if (reread) setDrafts(reread.categories.map(categoryDraft));
    },
  );
  const save = useMutation(trpc.desk.saveCategories.mutationOptions(saved));
  const change = (key: string, patch: Partial<CategoryDraft>) =>
    setDrafts((now) => now.map((d) => (d.key === key ? { ...d, ...patch } : d)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const categories = drafts.map((d) => ({
      ...(d.id === undefined ? {} : { id: d.id }),
      name: d.name,
      imageUrl: d.imageUrl,
    }));
    for (const [index, category] of categories.entries()) {
      const checked = v.safeParse(categoryInput, category);
      if (!checked.success) {
        const name = category.name.trim() || `Category ${index + 1}`;
        setProblem(`${name}: ${checked.issues[0].message}`);
        return;
      }
    }
    const payload = { requestKey, categories };
    const checked = v.safeParse(saveCategoriesInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload);
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="categories-title"
      data-testid="desk-home-categories"
      className="min-w-0 space-y-6 xl:sticky xl:top-24"
    >
      <SectionHeading id="categories-title" title={DESK_HOME_TEXT.categories}>
        The shop’s menu lists them in this order. A category with pieces in it stays until they are
        moved.
      </SectionHeading>
      <ol className="divide-y divide-line border border-line bg-paper">
        {drafts.map((draft, index) => {
          const name = draft.name.trim() || `Category ${index + 1}`;
          return (
            <li key={draft.key} data-testid="desk-category">
              <div className="grid grid-cols-[3.5rem_minmax(0,1fr)] items-start gap-3 px-4 pt-4 sm:px-6">
                <div className="relative aspect-[4/5] overflow-hidden bg-paper-2">
                  {draft.imageUrl ? (
                    <ProductImage src={draft.imageUrl} sizes="56px" alt="" fill />
                  ) : (
                    <span className="grid size-full place-items-center font-display text-xl text-ink-soft">
                      {(draft.name.trim()[0] ?? '?').toUpperCase()}
                    </span>
                  )}
                </div>
                <div className="min-w-0">
                  <Field
                    label={`Name of category ${index + 1}`}
                    value={draft.name}
                    maxLength={CATEGORY_NAME_MAX}
                    autoComplete="off"
                    placeholder="e.g. Dresses"
                    onChange={(event) => change(draft.key, { name: event.target.value })}
                    note={
                      draft.id === undefined
                        ? 'New'
                        : `${draft.pieces} ${draft.pieces === 1 ? 'piece' : 'pieces'}`
                    }
                  />
                  <PicturePicker
                    label={`Picture for ${name}`}
                    value={draft.imageUrl}
                    pictures={loaded.pictures}
                    none="None"
                    onChange={(imageUrl) => change(draft.key, { imageUrl })}
                    className="mt-3"
                  />
                </div>
              </div>
              <ItemActions
                name={name}
                index={index}
                count={drafts.length}
                onMove={(by) => setDrafts((now) => moved(now, index, by))}
                onRemove={
                  draft.pieces === 0 && drafts.length > 1
                    ? () => setDrafts((now) => now.filter((d) => d.key !== draft.key))
                    : undefined
                }
                removeLabel="Remove category"
                removeNote={draft.pieces > 0 ? 'Has pieces: kept' : undefined}
              />
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="btn btn-outline min-h-12 w-full sm:w-auto"
        onClick={() =>
          setDrafts((now) => [
            ...now,
            { key: crypto.randomUUID(), name: '', imageUrl: null, pieces: 0 },
          ])
        }
      >
        <Plus size={16} aria-hidden /> Add a category
      </button>
      {problem && <Notice tone="error">{problem}</Notice>}
      <SaveButton pending={save.isPending} className="w-full sm:w-auto">
        Save categories
      </SaveButton>
    </form>
  );
}
