import { type ReactNode, type Ref, useId } from 'react';
import {
  COLOUR,
  type ProductOption,
  VARIANT_TEXT,
  type Variant,
  type VariantOptions,
  valueAvailable,
} from '#core/variants.ts';

/** A swatch for the demo catalogue's colour names; others show their name alone. */
const SWATCH: Record<string, string> = {
  Black: '#1d1a16',
  Camel: '#b88a57',
  Indigo: '#34406e',
  Ivory: '#f3ecdc',
  Marigold: '#e0a21d',
  Natural: '#e3d6bd',
  Navy: '#1f2a44',
  Ochre: '#c28a2c',
  Olive: '#6b6b3a',
  Red: '#a8261b',
  Sage: '#9caf88',
  Sand: '#d8c3a0',
  Tan: '#b07b4f',
  Terracotta: '#b4552f',
  White: '#ffffff',
};

/**
 * The product's Size and Colour choices: one radio group per option, named by it ("Size",
 * "Colour"). A value no variant has in stock (with the other values chosen) is shown, struck,
 * marked sold out and aria-disabled; it can still be chosen, to ask "Tell me when it's back".
 */
export function VariantPicker({
  options,
  variants,
  chosen,
  onChoose,
  error,
  errorOption,
  groupRef,
  aside,
}: {
  options: readonly ProductOption[];
  variants: readonly Variant[];
  chosen: VariantOptions;
  onChoose: (option: string, value: string) => void;
  /** "Please choose a size.", shown under the group it is about. */
  error: string | null;
  errorOption: string | null;
  /** The group Add to Cart sends focus to when its choice is missing. */
  groupRef?: Ref<HTMLDivElement>;
  /** Beside the Size group's name (the size guide's button). */
  aside?: ReactNode;
}) {
  // Colour first: choosing it changes the pictures and which sizes are left.
  const ordered = [...options].sort(
    (a, b) => Number(b.name === COLOUR) - Number(a.name === COLOUR),
  );
  return (
    <div className="flex flex-col gap-5">
      {ordered.map((option) => (
        <OptionGroup
          key={option.name}
          option={option}
          variants={variants}
          chosen={chosen}
          onChoose={onChoose}
          error={errorOption === option.name ? error : null}
          groupRef={errorOption === option.name ? groupRef : undefined}
          aside={option.name === COLOUR ? undefined : aside}
        />
      ))}
    </div>
  );
}

function OptionGroup({
  option,
  variants,
  chosen,
  onChoose,
  error,
  groupRef,
  aside,
}: {
  option: ProductOption;
  variants: readonly Variant[];
  chosen: VariantOptions;
  onChoose: (option: string, value: string) => void;
  error: string | null;
  groupRef?: Ref<HTMLDivElement>;
  aside?: ReactNode;
}) {
  const id = useId();
  const picked = chosen[option.name];
  const isColour = option.name === COLOUR;
  return (
    <div>
      <div className="mb-2.5 flex items-baseline justify-between gap-4">
        <p className="text-xs font-semibold uppercase tracking-[0.18em]">
          <span id={`${id}-name`}>{option.name}</span>
          {picked && (
            <span
              className="ml-2 font-normal normal-case tracking-normal text-ink-soft"
              aria-hidden
            >
              {picked}
            </span>
          )}
        </p>
        {aside}
      </div>
      <div
        ref={groupRef}
        role="radiogroup"
        aria-labelledby={`${id}-name`}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-invalid={error ? true : undefined}
        tabIndex={-1}
        className="flex flex-wrap gap-2 outline-none"
        data-option={option.name}
      >
        {option.values.map((value) => {
          const soldOut = !valueAvailable([...variants], option.name, value, chosen);
          const swatch = isColour ? SWATCH[value] : undefined;
          return (
            <label key={value} className="variant-pill" data-sold-out={soldOut || undefined}>
              <input
                type="radio"
                name={`${id}-${option.name}`}
                value={value}
                checked={picked === value}
                onChange={() => onChoose(option.name, value)}
                aria-disabled={soldOut || undefined}
                // Named "XXL, sold out" (an sr-only span would read "XXL , sold out").
                aria-label={soldOut ? `${value}, ${VARIANT_TEXT.soldOut.toLowerCase()}` : undefined}
                className="peer sr-only"
              />
              <span className="variant-pill-face">
                {swatch && <span aria-hidden className="swatch" style={{ background: swatch }} />}
                <span className="variant-pill-value">{value}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm font-semibold text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
