import type { ReactNode } from 'react';

/**
 * A desk form's submit button: disabled while its save runs, and saying so (`busy`, "Saving…"),
 * so a second tap cannot send the form twice. `className` sizes it for its page.
 */
export function SaveButton({
  pending,
  busy = 'Saving…',
  className,
  children,
}: {
  pending: boolean;
  busy?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className={className ? `btn btn-primary min-h-12 ${className}` : 'btn btn-primary min-h-12'}
      disabled={pending}
    >
      {pending ? busy : children}
    </button>
  );
}
