// Toasts, with their library (sonner, ~10 KiB on the wire) loaded when the first toast is asked
// for, not with every page (issue 38: most visits never show one). The toaster mounts then; the
// toast waits for it to listen (sonner's toaster shows only toasts made after it mounts).
import { useHydrated } from '@tanstack/react-router';
import { type ComponentProps, lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

type Sonner = typeof import('sonner');
type Options = Parameters<Sonner['toast']['success']>[1];

let library: Promise<Sonner> | null = null;
const load = () => {
  library ??= import('sonner');
  return library;
};

let listening!: () => void;
const mounted = new Promise<void>((resolve) => {
  listening = resolve;
});

/** Whether a toast has been asked for on this page yet: the toaster mounts from then on. */
let wanted = false;
const watchers = new Set<() => void>();
const watch = (changed: () => void) => {
  watchers.add(changed);
  return () => watchers.delete(changed);
};

function show(kind: 'success' | 'error' | 'warning', message: string, options?: Options) {
  if (!wanted) {
    wanted = true;
    for (const changed of watchers) changed();
  }
  void Promise.all([load(), mounted]).then(([sonner]) => sonner.toast[kind](message, options));
}

export const toast = {
  success: (message: string, options?: Options) => show('success', message, options),
  error: (message: string, options?: Options) => show('error', message, options),
  warning: (message: string, options?: Options) => show('warning', message, options),
};

const LoadedToaster = lazy(() =>
  load().then(({ Toaster }) => ({
    default: (props: ComponentProps<Sonner['Toaster']>) => {
      useEffect(listening, []);
      return <Toaster {...props} />;
    },
  })),
);

/** sonner's Toaster, in the browser only, once the page has hydrated and asked for a toast. */
export function Toaster(props: ComponentProps<Sonner['Toaster']>) {
  const hydrated = useHydrated();
  const asked = useSyncExternalStore(
    watch,
    () => wanted,
    () => false,
  );
  if (!hydrated || !asked) return null;
  return (
    <Suspense fallback={null}>
      <LoadedToaster {...props} />
    </Suspense>
  );
}
