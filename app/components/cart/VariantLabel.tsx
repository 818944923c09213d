// The size and colour of a line ("M · Indigo") wherever an order line shows: the cart, the
// checkout, both order readings, the receipt. Nothing for a piece without options, so those
// lines look exactly as before.
export function VariantLabel({
  label,
  className = '',
}: {
  label?: string | null;
  className?: string;
}) {
  if (!label) return null;
  return (
    <p className={`text-sm text-ink-soft ${className}`} data-testid="variant-label">
      <span className="sr-only">Size and colour: </span>
      {label}
    </p>
  );
}
