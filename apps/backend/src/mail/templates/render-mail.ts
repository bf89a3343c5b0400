import type { PreferredLanguage } from '../../common/preferred-language';
import type { MailTemplate } from '../mail-outbox';
import { MAIL_TEXTS } from './mail-texts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** Fills `{name}` placeholders; an unknown name is an error (a template bug, caught by the unit tests). */
function fill(template: string, values: Record<string, string>, escape: (value: string) => string): string {
  return template.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`mail template value "${name}" is missing`);
    return escape(value);
  });
}

/**
 * The subject, plain-text and HTML parts of an email, in the recipient's language. `values.link`
 * is the call to action. Subjects never hold line breaks (header injection): the values they use
 * are names, whose line breaks are replaced by spaces.
 */
export function renderMail(
  template: MailTemplate,
  language: PreferredLanguage,
  values: Record<string, string>,
): RenderedMail {
  const texts = MAIL_TEXTS[template][language];
  const plain = (value: string) => value;
  const oneLine = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, value.replace(/[\r\n]+/g, ' ')]),
  );
  const subject = fill(texts.subject, oneLine, plain);
  const link = values.link;
  const text = [
    fill(texts.greeting, values, plain),
    ...texts.body.map((paragraph) => fill(paragraph, values, plain)),
    `${texts.action}: ${link}`,
    ...texts.footer.map((paragraph) => fill(paragraph, values, plain)),
  ].join('\n\n');
  const paragraph = (line: string) => `<p>${fill(line, values, escapeHtml)}</p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${language.slice(0, 2)}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5">',
    paragraph(texts.greeting),
    ...texts.body.map(paragraph),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(texts.action)}</a></p>`,
    ...texts.footer.map(paragraph),
    '</body></html>',
  ].join('\n');
  return { subject, text: `${text}\n`, html: `${html}\n` };
}
