// Toasts, with their library (sonner, ~9 KiB gzip) loaded once the page is interactive instead
// of in every page's first scripts. The toaster mounts right after hydration; a toast asked for
// before it is listening waits for it (sonner's toaster shows only toasts made after it mounts).
import { useHydrated } from '@tanstack/react-router';
import { type ComponentProps, lazy, Suspense, useEffect } from 'react';

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

function show(kind: 'success' | 'error' | 'warning', message: string, options?: Options) {
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

/** sonner's Toaster, in the browser only, once the page has hydrated. */
export function Toaster(props: ComponentProps<Sonner['Toaster']>) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <LoadedToaster {...props} />
    </Suspense>
  );
}
