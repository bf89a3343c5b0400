/**
 * How a service's 422 messages name a field (docs/decisions.md D-74): each field gets one
 * message, its first problem, in a sentence that begins with the field's subject and ends with a
 * full stop.
 * - The backend names the field in words: "The first name field is required." (underscores read
 *   as spaces; a nested field by its own name or its dotted path).
 * - The search service names the parameter as clients send it: "size must be an integer from 1 to
 *   100.", "hide_invalid must be one of true, false, 1, 0, yes, no, on, off."
 */
export interface FieldStyle {
  /** The words a message about the field at `path` (`first_name`, `steps.0.time`) begins with. */
  subject(path: string): string;
}

/** The backend's style: "The first name field …". */
export const NAMED_FIELD_STYLE: FieldStyle = {
  subject: (path) => `The ${path.replace(/_/g, ' ')} field`,
};

/** The search service's style: "size …", the parameter's wire name. */
export const WIRE_NAME_STYLE: FieldStyle = {
  subject: (path) => path,
};

/** The summary of a 422: the first message, and how many others there are. */
export function validationSummary(messages: string[]): string {
  if (messages.length === 0) return 'The given data was invalid.';
  const rest = messages.length - 1;
  return rest === 0 ? messages[0] : `${messages[0]} (and ${rest} more error${rest > 1 ? 's' : ''})`;
}

/**
 * How a 422 body breaks the style (an empty list: it keeps it): `errors` maps each field to
 * exactly one message, which begins with the field's subject (its whole path's, or its last
 * segment's for a nested field), goes on after it, and ends with a full stop; `message` is the
 * summary of those messages.
 */
export function styleProblems(body: unknown, style: FieldStyle): string[] {
  const problems: string[] = [];
  const { message, errors } = (body ?? {}) as { message?: unknown; errors?: unknown };
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) {
    return [`no per-field map in ${JSON.stringify(body)}`];
  }
  const firsts: string[] = [];
  for (const [path, messages] of Object.entries(errors as Record<string, unknown>)) {
    if (!Array.isArray(messages) || messages.length !== 1 || typeof messages[0] !== 'string') {
      problems.push(`${path}: not exactly one message: ${JSON.stringify(messages)}`);
      if (!Array.isArray(messages) || typeof messages[0] !== 'string') continue;
    }
    const text = messages[0] as string;
    firsts.push(text);
    const subjects = [style.subject(path), style.subject(path.split('.').pop() ?? path)];
    if (!subjects.some((subject) => text.startsWith(`${subject} `))) {
      problems.push(`${path}: does not begin with "${subjects[0]} ": ${JSON.stringify(text)}`);
    }
    if (!text.endsWith('.')) problems.push(`${path}: no full stop: ${JSON.stringify(text)}`);
  }
  if (firsts.length === 0) problems.push(`no field named in ${JSON.stringify(body)}`);
  else if (message !== validationSummary(firsts)) {
    problems.push(
      `message ${JSON.stringify(message)} is not the summary ${JSON.stringify(validationSummary(firsts))}`,
    );
  }
  return problems;
}
