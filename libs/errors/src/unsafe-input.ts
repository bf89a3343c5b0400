import type { FieldErrors } from './app-error';
import { FieldStyle, NAMED_FIELD_STYLE } from './field-style';

/** How deep a body or query may nest objects and arrays; deeper input is refused before validation. */
export const MAX_INPUT_DEPTH = 32;

// An unpaired UTF-16 surrogate: JSON can carry one (`"\ud800"`), UTF-8 and PostgreSQL cannot.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOfText(text: string, path: string, style: FieldStyle): string | null {
  if (text.includes('\0')) return `${style.subject(path)} must not contain NUL characters.`;
  if (LONE_SURROGATE.test(text)) return `${style.subject(path)} must be valid Unicode text.`;
  return null;
}

/**
 * Finds what no client input may hold, in any string of a body, query or path parameter: NUL
 * characters and unpaired surrogates (PostgreSQL refuses the first; neither is text), and nesting
 * deeper than MAX_INPUT_DEPTH (the validator walks input recursively). Paths are dotted like the
 * validator's (`steps.0.time`), the messages in the service's style (docs/decisions.md D-74).
 * Iterative, so the walk itself cannot overflow the stack.
 */
export function findUnsafeInput(
  value: unknown,
  rootPath = '',
  style: FieldStyle = NAMED_FIELD_STYLE,
): FieldErrors | null {
  const problems: FieldErrors = {};
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: rootPath, depth: 0 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    const name = item.path || 'body';
    if (typeof item.value === 'string') {
      const problem = problemOfText(item.value, name, style);
      if (problem) problems[name] = [problem];
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_INPUT_DEPTH) {
      problems[name] = [`${style.subject(name)} is nested too deeply (at most ${MAX_INPUT_DEPTH} levels).`];
      continue;
    }
    for (const [key, child] of Object.entries(item.value)) {
      // A bad key is reported on its parent, so the answer never echoes the bad characters.
      const keyProblem = problemOfText(key, name, style);
      if (keyProblem) problems[name] = [keyProblem];
      else
        pending.push({ value: child, path: item.path ? `${item.path}.${key}` : key, depth: item.depth + 1 });
    }
  }
  return Object.keys(problems).length > 0 ? problems : null;
}
