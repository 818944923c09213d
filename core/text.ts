// The one rule for text that arrives from outside (forms, URLs, API calls), shared by the forms
// and the procedures. Control characters (NUL, which Postgres text cannot hold, and the other
// invisible C0/C1 controls and DEL) and half characters (lone UTF-16 surrogates, which are not
// UTF-8) are never typed by a person:
// - text the shop stores is refused with the field's message, not altered: what is saved is what
//   was sent, and the form shows the same message before anything is sent;
// - a search term is stored nowhere, so they read as spaces and the search still answers.
import * as v from 'valibot';

const INVISIBLE = /[\p{Cc}\p{Cs}]/u;
const INVISIBLE_RUNS = /[\p{Cc}\p{Cs}]+/gu;
/** Tab, line feed and carriage return: allowed where text may span lines. */
const LINE_BREAKS = /[\t\n\r]/g;

/** The message for a field that holds such characters, in the spec's "cannot contain" style. */
export const invisibleCharacters = (field: string) =>
  `${field} cannot contain invisible control characters.`;

/** Whether text is one line a person could have typed: no control character at all. */
export function isTypedLine(text: string): boolean {
  return !INVISIBLE.test(text);
}

/** One line of typed text (a name, a phone number): no control character at all. */
export function typedLine(message: string) {
  return v.check(isTypedLine, message);
}

/** Text that may span lines (an address, a message): tabs and line breaks allowed. */
export function typedLines(message: string) {
  return v.check((text: string) => !INVISIBLE.test(text.replace(LINE_BREAKS, '')), message);
}

/**
 * A field a person types into: text, trimmed, at most `max` characters, and nothing invisible
 * (not even tabs or line breaks, unless the field spans `lines`).
 */
export function typedText(rules: {
  notText: string;
  max: number;
  tooLong: string;
  invisible: string;
  lines?: boolean;
}) {
  return v.pipe(
    v.string(rules.notText),
    v.trim(),
    v.maxLength(rules.max, rules.tooLong),
    rules.lines ? typedLines(rules.invisible) : typedLine(rules.invisible),
  );
}

/** A search term as the shop reads it: invisible characters become spaces, then trimmed. */
export function cleanSearchText(text: string): string {
  return text.replace(INVISIBLE_RUNS, ' ').trim();
}

/** An optional text field: missing, null or blank (after the field's own trim) becomes null. */
export function optionalText(text: v.GenericSchema<string, string>) {
  return v.pipe(
    v.nullish(text, ''),
    v.transform((value): string | null => value || null),
  );
}

/**
 * The message of an object schema's own issue: a key it does not know (someone sent more than
 * the form has), or anything else (not an object at all, a key missing).
 */
export function objectMessage(unknownKey: string, otherwise: string = unknownKey) {
  return (issue: v.BaseIssue<unknown>) => (issue.expected === 'never' ? unknownKey : otherwise);
}
