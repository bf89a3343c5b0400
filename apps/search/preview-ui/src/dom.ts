type Child = Node | string | null | undefined | false;
type AttributeValue = string | number | boolean | null | undefined;

/**
 * `h('p', { class: 'hint' }, 'text', child)`: an element with its attributes (`true` → present,
 * `false`/null/undefined → left out) and children. No `style` attribute: the page's policy
 * refuses inline styles; sizes are set through `element.style` (see `bar`).
 */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Record<string, AttributeValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** The element of the page with this id, checked to be of the expected kind. */
export function byId<Kind extends HTMLElement>(id: string, kind: new () => Kind): Kind {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`#${id} is missing from the page`);
  return element;
}

/**
 * A horizontal bar filled to `share` (0 to 1) of its width, for the eye only (`aria-hidden`): the
 * number it pictures is always written beside it.
 */
export function bar(share: number, variant: string, marker?: number): HTMLSpanElement {
  const fill = h('span', { class: `bar-fill bar-${variant}` });
  fill.style.width = `${(Math.min(1, Math.max(0, share)) * 100).toFixed(2)}%`;
  const track = h('span', { class: 'bar', 'aria-hidden': 'true' }, fill);
  if (marker !== undefined) {
    const line = h('span', { class: 'bar-marker' });
    line.style.left = `${(Math.min(1, Math.max(0, marker)) * 100).toFixed(2)}%`;
    track.append(line);
  }
  return track;
}
