import { h } from './dom';
import { renderExplanation, type RankingContext } from './explanation';
import { categoryLabel, type OfferView } from './offer-view';
import { formatDecimal, formatLocalDate, formatPrice, formatScore } from './format';

/** A hue from a text, so each destination keeps its colour from one search to the next. */
function hueOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

/**
 * The offer's photo when the service itself serves it; otherwise a tile in its place: the
 * catalogue's photos live on other hosts, and the page loads nothing from another origin.
 */
function photoOf(offer: OfferView): HTMLElement {
  const { photo } = offer;
  if (photo && new URL(photo.url, location.href).origin === location.origin) {
    return h('img', {
      class: 'thumb',
      src: photo.url,
      alt: photo.alt,
      loading: 'lazy',
      width: 112,
      height: 112,
    });
  }
  const place = photo?.alt || offer.destination || offer.name;
  const label = photo
    ? `Photo of ${place} on ${new URL(photo.url, location.href).host}, not loaded`
    : 'No photo';
  const tile = h(
    'div',
    { class: 'thumb placeholder', role: 'img', 'aria-label': label, title: label },
    h('span', { class: 'thumb-place', 'aria-hidden': 'true' }, place),
  );
  // Dark enough for white text at any hue (contrast above 4.5:1).
  tile.style.backgroundColor = `hsl(${hueOf(offer.destination ?? place)} 40% 30%)`;
  return tile;
}

function factsOf(offer: OfferView): string[] {
  return [
    offer.destination,
    offer.price ? `from ${formatPrice(offer.price)}` : null,
    offer.rating !== null ? `rated ${formatDecimal(offer.rating, 2)}` : null,
    offer.durationDays !== null ? `${offer.durationDays} ${offer.durationDays === 1 ? 'day' : 'days'}` : null,
    offer.nextDeparture ? `next departure ${formatLocalDate(offer.nextDeparture)}` : null,
    offer.discountClub ? 'discount club' : null,
    offer.seaside ? 'by the sea' : null,
    offer.bookable === false ? 'not bookable' : null,
  ].filter((fact): fact is string => fact !== null);
}

function scoresOf(offer: OfferView): HTMLElement {
  const score = (label: string, value: string) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
  return h(
    'dl',
    { class: 'scores', 'aria-label': 'Scores' },
    score('relevance', formatScore(offer.scores.relevance)),
    score('semantic', formatDecimal(offer.scores.semantic, 3)),
    score('text', formatDecimal(offer.scores.text, 2)),
  );
}

/** One result: the offer, its scores and, for a search, its "why this rank" behind a button. */
export function renderCard(offer: OfferView, rank: number, context: RankingContext): HTMLLIElement {
  const titleId = `offer-${rank}-title`;
  const whyId = `offer-${rank}-why`;
  const body = h(
    'div',
    { class: 'card-body' },
    h('h3', { id: titleId }, h('span', { class: 'rank' }, `#${rank}`), ' ', offer.name),
    h('p', { class: 'facts' }, factsOf(offer).join(' · ')),
    offer.categories.length > 0
      ? h(
          'ul',
          { class: 'chips', 'aria-label': 'Categories' },
          ...offer.categories.map((slug) => h('li', {}, categoryLabel(slug))),
        )
      : null,
    offer.description ? h('p', { class: 'description' }, offer.description) : null,
    h('p', { class: 'offer-id muted' }, offer.id),
    scoresOf(offer),
  );
  const card = h('article', { class: 'card', 'aria-labelledby': titleId }, photoOf(offer), body);
  const { explanation } = offer;
  if (explanation) {
    const panel = renderExplanation(explanation, context);
    panel.id = whyId;
    panel.hidden = true;
    const toggle = h(
      'button',
      {
        type: 'button',
        class: 'why-toggle',
        'aria-expanded': 'false',
        'aria-controls': whyId,
        'aria-describedby': titleId,
      },
      'Why this rank?',
    );
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
    });
    body.append(toggle);
    card.append(panel);
  }
  return h('li', {}, card);
}
