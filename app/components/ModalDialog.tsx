import { type KeyboardEventHandler, type ReactNode, useEffect, useRef } from 'react';

/**
 * A native modal <dialog>, open while it is mounted: the page behind is inert, Esc closes it and
 * focus returns to what opened it; a click on the backdrop closes it too. Closing fires `onClose`,
 * where its owner unmounts it (closing it on unmount as well would fire `close` twice).
 * `children` gets `close`, for the dialog's own Close button.
 */
export function ModalDialog({
  className,
  onClose,
  onKeyDown,
  children,
  ...labels
}: {
  className: string;
  onClose: () => void;
  onKeyDown?: KeyboardEventHandler<HTMLDialogElement>;
  children: (close: () => void) => ReactNode;
  'aria-labelledby'?: string;
  'aria-label'?: string;
  'data-testid'?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  const close = () => ref.current?.close();
  return (
    <dialog
      ref={ref}
      {...labels}
      onClose={onClose}
      onKeyDown={onKeyDown}
      onClick={(event) => event.target === ref.current && close()}
      className={`bg-paper p-0 text-ink ${className}`}
    >
      {children(close)}
    </dialog>
  );
}
