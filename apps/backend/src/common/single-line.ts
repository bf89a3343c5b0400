import { CheckRule } from '@rt/contracts';
import type { FieldErrors } from '@rt/errors';

/**
 * C0 controls (CR and LF among them), DEL, C1 controls and the Unicode line and paragraph
 * separators: the characters that break a line or control a terminal. A name we write into mail,
 * logs and exports holds none of them (docs/decisions.md D-74).
 */
const breaksALine = (code: number): boolean =>
  code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

/** Whether a text is one line: no control character, no line or paragraph separator. */
export function isSingleLine(value: string): boolean {
  for (const char of value) if (breaksALine(char.codePointAt(0)!)) return false;
  return true;
}

/** "The first name field must be a single line: no line breaks or control characters." */
export const singleLineMessage = (field: string): string =>
  `The ${field.replace(/_/g, ' ')} field must be a single line: no line breaks or control characters.`;

/**
 * A single-line name (a user's first or last name; the name of an organization, a tour, an
 * activity, a provider or a tag): a string sent holds no control character (isSingleLine). Beside
 * the field's own decorator (`TextField`), which judges presence, type and length.
 */
export function SingleLine(): PropertyDecorator {
  return CheckRule('singleLine', (value, field) =>
    typeof value === 'string' && !isSingleLine(value) ? singleLineMessage(field) : null,
  );
}

/**
 * For a full replacement, where a name must be sent even when it does not change: the sent names
 * that are not single lines and differ from the stored ones (`field: [sent, stored]`). A row
 * stored before the rule stays usable: sending its name back unchanged is no change.
 */
export function changedMultiLineNames(names: Record<string, [sent: string, stored: string]>): FieldErrors {
  const problems: FieldErrors = {};
  for (const [field, [sent, stored]] of Object.entries(names)) {
    if (sent !== stored && !isSingleLine(sent)) problems[field] = [singleLineMessage(field)];
  }
  return problems;
}
