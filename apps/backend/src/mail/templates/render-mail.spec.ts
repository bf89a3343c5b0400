import { PREFERRED_LANGUAGES } from '../../common/preferred-language';
import { MAIL_TEMPLATES } from '../mail-outbox';
import { durationInWords } from './mail-texts';
import { escapeHtml, renderMail } from './render-mail';

const values = {
  user_id: '7d7a4b52-3c47-4a0e-9c0b-8f0d6f3f0a11',
  first_name: 'Zoé',
  organization_name: 'Lac & Montagne',
  link: 'https://office.example.test/accept-invitation?token=abc&email=zoe%40example.com',
  valid_for: '7 days',
  email_change_id: '0b6f3f0e-6a53-4b43-9d55-2f1c1e6d7a10',
  new_email: 'zoe.new@example.com',
};

describe('renderMail', () => {
  it.each(MAIL_TEMPLATES.flatMap((template) => PREFERRED_LANGUAGES.map((language) => [template, language])))(
    'renders %s in %s: subject, text and HTML with the link and no placeholder left',
    (template, language) => {
      const mail = renderMail(template as (typeof MAIL_TEMPLATES)[number], language as 'en-gb', values);
      expect(mail.subject.length).toBeGreaterThan(5);
      for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/\{[a-z_]+\}/);
      expect(mail.text).toContain(values.link);
      expect(mail.text).toContain('Zoé');
      expect(mail.html).toContain(`href="${escapeHtml(values.link)}"`);
      expect(mail.html).toContain(`<html lang="${language.slice(0, 2)}">`);
    },
  );

  it('writes the greeting in the recipient language', () => {
    expect(renderMail('invitation', 'fr-ch', values).text).toMatch(/^Bonjour Zoé,/);
    expect(renderMail('invitation', 'ge-ch', values).text).toMatch(/^Grüezi Zoé,/);
    expect(renderMail('invitation', 'en-gb', values).text).toMatch(/^Hello Zoé,/);
  });

  it('escapes values in the HTML part, not in the text part', () => {
    const hostile = { ...values, organization_name: '<script>alert(1)</script> "Co"' };
    const mail = renderMail('manager-added', 'en-gb', hostile);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Co&quot;');
    expect(mail.text).toContain('<script>alert(1)</script> "Co"');
  });

  it('keeps the subject on one line whatever the names hold (no header injection)', () => {
    const mail = renderMail('invitation', 'en-gb', {
      ...values,
      organization_name: 'Evil\r\nBcc: all@example.com',
    });
    expect(mail.subject).toBe('You are invited to manage Evil Bcc: all@example.com');
  });

  it('refuses a template value that is missing', () => {
    const { organization_name: _missing, ...incomplete } = values;
    expect(() => renderMail('invitation', 'en-gb', incomplete)).toThrow('"organization_name" is missing');
  });
});

describe('durationInWords', () => {
  it('says how long a link lasts in each language', () => {
    expect(durationInWords('en-gb', 60, 'minutes')).toBe('60 minutes');
    expect(durationInWords('en-gb', 1, 'days')).toBe('1 day');
    expect(durationInWords('fr-ch', 7, 'days')).toBe('pendant 7 jours');
    expect(durationInWords('ge-ch', 7, 'days')).toBe('7 Tage lang');
    expect(durationInWords('fr-ch', 24, 'hours')).toBe('pendant 24 heures');
    expect(durationInWords('ge-ch', 1, 'hours')).toBe('1 Stunde lang');
  });
});
