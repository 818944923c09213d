// The product editor's photos panel (issue 22, decision 0045): pictures from the phone's camera
// or files, each sent on its own with its progress (POST /api/desk/products/{id}/photos); then
// their order, alt text and colour, saved at once with desk.setPhotos. A photo removed here is
// removed on save; one someone else uploaded meanwhile is kept. What was typed stays after a failed save, and the save's request key is kept
// for its retry, so a dropped connection never saves twice.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ImagePlus, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { newOrderId } from '#app/components/checkout/order-attempt.ts';
import { errorMessage } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import {
  ALT_MAX,
  type DeskPhoto,
  PHOTO_MAX_BYTES,
  PHOTO_TEXT,
  photoUploadPath,
} from '#core/desk-photos.ts';

type Upload = {
  id: string;
  name: string;
  /** 0–100, or null while the size is unknown. */
  progress: number | null;
  /** False while it waits for the files before it. */
  started: boolean;
  problem: string | null;
};

const control =
  'inline-flex size-11 items-center justify-center border border-line bg-paper text-ink hover:border-ink disabled:cursor-not-allowed disabled:opacity-40';
const fieldClass =
  'mt-1 block min-h-11 w-full border border-line bg-paper px-3 text-base text-ink focus:border-ink focus:outline-none';

export function ProductPhotos({ productId }: { productId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saved = useQuery(trpc.desk.photos.queryOptions({ productId }));
  /** The photos as the panel shows them (order, alt, colour), until saved. */
  const [draft, setDraft] = useState<DeskPhoto[] | null>(null);
  /** The photos removed here since the last save: only these are removed by it. */
  const [removed, setRemoved] = useState<number[]>([]);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [requestKey, setRequestKey] = useState(newOrderId);
  const headingId = useId();

  useEffect(() => {
    if (saved.data && draft === null) setDraft(saved.data.photos);
  }, [saved.data, draft]);

  const save = useMutation(
    trpc.desk.setPhotos.mutationOptions({
      onSuccess: async (answer, sent) => {
        // Photos uploaded while the save was on its way stay, after the saved ones (the answer
        // also carries any another person uploaded meanwhile).
        const known = new Set([...sent.photos, ...answer.photos].map((photo) => photo.id));
        setDraft((current) => [
          ...answer.photos,
          ...(current ?? []).filter((photo) => !known.has(photo.id)),
        ]);
        const gone = new Set(sent.removed ?? []);
        setRemoved((current) => current.filter((id) => !gone.has(id)));
        setRequestKey(newOrderId());
        toast.success(PHOTO_TEXT.saved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.photos.pathKey() });
      },
      onError: (error) => toast.error(errorMessage(error, PHOTO_TEXT.failed)),
    }),
  );

  const photos = draft ?? [];
  const colours = saved.data?.colours ?? [];
  const change = (next: DeskPhoto[]) => {
    setDraft(next);
    // A changed list is a new save: a retry of the old one must not stand for it.
    setRequestKey(newOrderId());
  };
  const edit = (index: number, changes: Partial<DeskPhoto>) =>
    change(photos.map((photo, i) => (i === index ? { ...photo, ...changes } : photo)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...photos];
    const [photo] = next.splice(index, 1);
    if (photo) next.splice(index + by, 0, photo);
    change(next);
  };

  async function addFiles(files: FileList | null) {
    const chosen = [...(files ?? [])];
    const entries = chosen.map((file) => ({
      file,
      upload: {
        id: newOrderId(),
        name: file.name,
        progress: 0,
        started: false,
        problem: null,
      } as Upload,
    }));
    setUploads((current) => [...current, ...entries.map((entry) => entry.upload)]);
    // One at a time: on a shop's patchy connection, each photo gets the whole line.
    for (const { file, upload } of entries) {
      const update = (changes: Partial<Upload>) =>
        setUploads((current) =>
          current.map((u) => (u.id === upload.id ? { ...u, ...changes } : u)),
        );
      update({ started: true });
      const answer = await sendPhoto(productId, file, (progress) => update({ progress }));
      if (answer.photo) {
        const photo = answer.photo;
        setDraft((current) => [...(current ?? []), photo]);
        setRequestKey(newOrderId());
        setUploads((current) => current.filter((u) => u.id !== upload.id));
      } else {
        update({ problem: answer.problem });
      }
    }
    await queryClient.invalidateQueries({ queryKey: trpc.desk.photos.pathKey() });
  }

  return (
    <section aria-labelledby={headingId} className="mt-10 border-t border-line pt-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="eyebrow">Pictures</p>
          <h2 id={headingId} className="mt-1 font-display text-3xl">
            Photos
          </h2>
          <p className="mt-1 max-w-prose text-sm text-ink-soft">
            JPEG, PNG, WebP or HEIC, up to 10 MB each. The first photo is the one shoppers see on
            cards.
          </p>
        </div>
        <label className="btn btn-outline cursor-pointer has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-55 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-ink">
          <ImagePlus aria-hidden="true" className="size-4" />
          Add photos
          <input
            type="file"
            accept="image/*"
            multiple
            disabled={draft === null}
            className="sr-only"
            onChange={(event) => {
              void addFiles(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </label>
      </div>

      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="mt-6 grid gap-3">
          {uploads.map((upload) => (
            <li key={upload.id} className="border border-line bg-paper px-4 py-3">
              <div className="flex items-center justify-between gap-3">
                <span className="min-w-0 truncate text-sm font-medium">{upload.name}</span>
                {upload.problem ? (
                  <button
                    type="button"
                    className="min-h-11 shrink-0 px-2 text-sm underline underline-offset-4"
                    onClick={() =>
                      setUploads((current) => current.filter((u) => u.id !== upload.id))
                    }
                  >
                    Dismiss
                  </button>
                ) : (
                  <span className="shrink-0 text-sm text-ink-soft tabular-nums">
                    {!upload.started
                      ? 'Waiting'
                      : upload.progress === null
                        ? 'Sending…'
                        : `${upload.progress}%`}
                  </span>
                )}
              </div>
              {upload.problem ? (
                <p role="alert" className="mt-1 text-sm text-danger">
                  {upload.problem}
                </p>
              ) : (
                <div
                  role="progressbar"
                  aria-label={`Uploading ${upload.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={upload.progress ?? undefined}
                  className="mt-2 h-1.5 w-full overflow-hidden bg-paper-2"
                >
                  <div
                    className="h-full bg-ink transition-[width] duration-200"
                    style={{ width: `${upload.progress ?? 0}%` }}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      {saved.isError ? (
        <p role="alert" className="mt-6 text-danger">
          {errorMessage(saved.error, PHOTO_TEXT.failed)}
        </p>
      ) : draft === null ? (
        <p role="status" className="mt-6 text-ink-soft">
          Loading photos…
        </p>
      ) : photos.length === 0 ? (
        <p className="mt-6 border border-dashed border-line px-4 py-8 text-center text-ink-soft">
          No photos yet. Add the first from the camera or your files.
        </p>
      ) : (
        <ul aria-label="Photos" className="mt-6 grid gap-4 lg:grid-cols-2">
          {photos.map((photo, index) => {
            const n = index + 1;
            return (
              <li
                key={photo.id}
                className="grid grid-cols-[5.5rem_1fr] gap-x-4 gap-y-3 border border-line bg-paper p-3 sm:grid-cols-[8rem_1fr] sm:p-4"
              >
                <img
                  src={`${photo.url}${photo.url.startsWith('/photos/') ? '?w=400' : ''}`}
                  alt=""
                  width={128}
                  height={160}
                  className="aspect-[4/5] w-full bg-paper-2 object-cover sm:row-span-2"
                />
                <div className="flex min-w-0 flex-col justify-between gap-2">
                  <p className="text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft tabular-nums">
                    Photo {n}
                    {index === 0 && <span className="text-gold"> · First</span>}
                  </p>
                  <div className="flex gap-2">
                    <button
                      type="button"
                      aria-label={`Move photo ${n} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                      className={control}
                    >
                      <ArrowUp aria-hidden="true" className="size-4" />
                    </button>
                    <button
                      type="button"
                      aria-label={`Move photo ${n} down`}
                      disabled={index === photos.length - 1}
                      onClick={() => move(index, 1)}
                      className={control}
                    >
                      <ArrowDown aria-hidden="true" className="size-4" />
                    </button>
                    <button
                      type="button"
                      aria-label={`Remove photo ${n}`}
                      onClick={() => {
                        setRemoved((current) => [...current, photo.id]);
                        change(photos.filter((_, i) => i !== index));
                      }}
                      className={`${control} ml-auto hover:border-danger hover:text-danger`}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  </div>
                </div>
                <div className="col-span-2 grid gap-3 sm:col-span-1 sm:col-start-2">
                  <label className="block text-xs font-semibold uppercase tracking-[0.16em]">
                    <span className="sr-only">Alt text for photo {n}</span>
                    <span aria-hidden="true">Alt text</span>
                    <textarea
                      value={photo.alt}
                      maxLength={ALT_MAX}
                      required
                      rows={2}
                      onChange={(event) => edit(index, { alt: event.target.value })}
                      className={`${fieldClass} resize-y py-2 normal-case tracking-normal`}
                    />
                  </label>
                  <label className="block text-xs font-semibold uppercase tracking-[0.16em]">
                    <span className="sr-only">Colour for photo {n}</span>
                    <span aria-hidden="true">Colour</span>
                    <select
                      value={photo.colour ?? ''}
                      onChange={(event) => edit(index, { colour: event.target.value || null })}
                      className={`${fieldClass} normal-case tracking-normal`}
                    >
                      <option value="">All colours</option>
                      {colours.map((colour) => (
                        <option key={colour} value={colour}>
                          {colour}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <div className="mt-6 flex justify-end">
        <button
          type="button"
          className="btn btn-primary w-full sm:w-auto"
          disabled={draft === null || save.isPending}
          onClick={() =>
            save.mutate({
              productId,
              requestKey,
              photos: photos.map(({ id, alt, colour }) => ({ id, alt, colour })),
              removed,
            })
          }
        >
          {save.isPending ? 'Saving…' : 'Save photos'}
        </button>
      </div>
    </section>
  );
}

/**
 * Sends one picture as the request's body, reporting progress (fetch cannot report an upload's
 * progress; XMLHttpRequest can). Answers the new photo, or the server's text.
 */
function sendPhoto(
  productId: number,
  file: File,
  onProgress: (percent: number | null) => void,
): Promise<{ photo: DeskPhoto; problem?: never } | { photo?: never; problem: string }> {
  // Refused before a byte is sent: the server would refuse it after all of them.
  if (file.size > PHOTO_MAX_BYTES) return Promise.resolve({ problem: PHOTO_TEXT.tooLarge });
  if (file.size === 0) return Promise.resolve({ problem: PHOTO_TEXT.empty });
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', photoUploadPath(productId));
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) =>
      onProgress(event.lengthComputable ? Math.round((event.loaded / event.total) * 100) : null);
    request.onload = () => {
      let body: { message?: string } & Partial<DeskPhoto> = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's error page): the generic text below.
      }
      if (request.status === 200 && typeof body.id === 'number') {
        resolve({ photo: body as DeskPhoto });
      } else {
        resolve({ problem: body.message ?? PHOTO_TEXT.failed });
      }
    };
    request.onerror = () => resolve({ problem: PHOTO_TEXT.failed });
    request.send(file);
  });
}
