import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { BACKEND_CONFIG, type BackendConfig } from '../src/config';
import { Transactions } from '../src/database/transactions';
import { DeliveryValues } from '../src/mail/mail-links';
import { MailOutbox } from '../src/mail/mail-outbox';
import { MailSender } from '../src/mail/mail-sender';
import { LocalFileMailSender } from '../src/mail/nodemailer-mail-sender';
import { OutboxWorker } from '../src/mail/outbox-worker';
import { OutboxRepository } from '../src/mail/outbox.repository';
import { createTestApp, TestApp } from './test-app';

const NEW_PASSWORD = 'my very first passphrase';

/** A real SMTP server on a loopback port, in this process, that can go down and come back. */
class TestSmtpServer {
  readonly received: ParsedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // Going down closes the backend's pooled connection at once (the default waits 30 s).
      closeTimeout: 100,
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string): ParsedMail[] {
    return this.received.filter((mail) =>
      [mail.to]
        .flat()
        .some((to) => to?.value.some((entry) => entry.address?.toLowerCase() === address.toLowerCase())),
    );
  }
}

const outboxRows = (t: TestApp, recipient: string) =>
  t.dataSource.query<{ state: string; attempts: number; last_error: string | null; sent_at: Date | null }[]>(
    `SELECT state, attempts, last_error, sent_at FROM mail_outbox WHERE recipient = $1 ORDER BY created_at`,
    [recipient],
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mail outbox: delivery over SMTP', () => {
  const smtp = new TestSmtpServer();
  let t: TestApp;

  beforeAll(async () => {
    await smtp.start();
    t = await createTestApp({
      mailSender: 'configured',
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Road Trip <no-reply@road-trip.test>',
        CLIENT_APP_URL: 'https://office.road-trip.test',
        MAIL_RETRY_BASE_SECONDS: '1',
        MAIL_MAX_ATTEMPTS: '5',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  it('delivers the invitation of a new manager; its link sets a password, and the hat works once the organization is approved', async () => {
    const admin = await t.signedInSuperAdmin();
    const managerEmail = 'new.manager@example.com';
    const created = await admin.agent
      .post('/api/organizations')
      .set('X-Viewing-As', 'super-admin')
      .send({
        name: 'Alpine Adventures',
        type: 'reseller',
        manager_email: managerEmail,
        manager_first_name: 'Nora',
        manager_last_name: 'Keller',
        preferred_language: 'ge-ch',
      })
      .expect(201);
    expect(smtp.to(managerEmail)).toEqual([]); // written to the outbox, not sent inline

    expect(await t.deliverMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [invitation] = smtp.to(managerEmail);
    expect(invitation.subject).toBe('Einladung: Alpine Adventures verwalten');
    expect(invitation.from?.text).toContain('no-reply@road-trip.test');
    expect(invitation.html).toContain('Grüezi Nora');
    const link = /https:\/\/office\.road-trip\.test\/accept-invitation\?\S+/.exec(invitation.text ?? '')?.[0];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.searchParams.get('email')).toBe(managerEmail);
    expect(await outboxRows(t, managerEmail)).toEqual([
      expect.objectContaining({ state: 'sent', attempts: 1, sent_at: expect.any(Date) }),
    ]);

    await t.http
      .post('/api/reset-password')
      .send({
        email: url.searchParams.get('email'),
        token: url.searchParams.get('token'),
        password: NEW_PASSWORD,
      })
      .expect(204);
    const login = await t.http
      .post('/api/login')
      .send({ email: managerEmail, password: NEW_PASSWORD, device_name: 'office' })
      .expect(200);
    const hat = `organization:${created.body.id}`;
    const asManager = () =>
      t.http
        .get('/api/organization')
        .set('Authorization', `Bearer ${login.body.token}`)
        .set('X-Viewing-As', hat);
    const refused = await asManager().expect(403);
    expect(refused.body.error).toBe('organization_not_approved');

    await admin.agent
      .patch(`/api/organizations/${created.body.id}/status`)
      .set('X-Viewing-As', 'super-admin')
      .send({ status: 'approved' })
      .expect(200);
    const details = await asManager().expect(200);
    expect(details.body).toMatchObject({
      id: created.body.id,
      status: 'approved',
      contact_email: managerEmail,
    });

    // The manager was invited at creation: the approval sends nothing more.
    await t.deliverMail();
    expect(smtp.to(managerEmail)).toHaveLength(1);
  });

  it('loses nothing while the SMTP server is down, and delivers once it is back', async () => {
    const user = await t.makeUser({ email: 'while-down@example.com', firstName: 'Lea' });
    await smtp.stop();
    try {
      await t.http.post('/api/forgot-password').send({ email: user.email }).expect(204);
      expect(await t.deliverMail()).toEqual({ sent: 0, retried: 1, failed: 0 });
      const [afterFailure] = await outboxRows(t, user.email);
      expect(afterFailure).toMatchObject({ state: 'pending', attempts: 1, sent_at: null });
      expect(afterFailure.last_error).toEqual(expect.any(String));
      // It waits, and the gauge of the oldest pending message says since when.
      const metrics = await t.http.get('/metrics').expect(200);
      const age = /^mail_outbox_oldest_pending_age_seconds (\S+)$/m.exec(metrics.text)?.[1];
      expect(Number(age)).toBeGreaterThan(0);
      // Not due yet: the back-off holds it.
      expect(await t.deliverMail()).toEqual({ sent: 0, retried: 0, failed: 0 });
    } finally {
      await smtp.start();
    }
    await sleep(1100);
    expect(await t.deliverMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [reset] = smtp.to(user.email);
    expect(reset.subject).toBe('Reset your password');
    expect(reset.text).toContain('https://office.road-trip.test/reset-password?token=');
    expect(await outboxRows(t, user.email)).toEqual([
      expect.objectContaining({ state: 'sent', attempts: 2, last_error: null }),
    ]);
  });

  it('gives a message one Message-ID on every delivery, and a crash that sends it twice voids neither link', async () => {
    const tokenOf = (mail: ParsedMail) => /[?&]token=([A-Za-z0-9]+)/.exec(mail.text ?? '')?.[1];
    /** What a crash between the SMTP server's acceptance and the row's mark leaves: a due row again. */
    const crashBeforeMark = (recipient: string) =>
      t.dataSource.query(
        `UPDATE mail_outbox SET state = 'pending', sent_at = NULL, locked_until = NULL, next_attempt_at = now()
         WHERE recipient = $1`,
        [recipient],
      );
    const reset = (email: string, token: string | undefined) =>
      t.http.post('/api/reset-password').send({ email, token, password: NEW_PASSWORD });

    const user = await t.makeUser({ email: 'crash-twice@example.com' });
    await t.http.post('/api/forgot-password').send({ email: user.email }).expect(204);
    const [row] = await t.dataSource.query<{ id: string }[]>(
      'SELECT id FROM mail_outbox WHERE recipient = $1',
      [user.email],
    );
    expect(await t.deliverMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
    await crashBeforeMark(user.email);
    expect(await t.deliverMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [first, second] = smtp.to(user.email);
    expect(first.messageId).toBe(`<${row.id}@road-trip.test>`);
    expect(second.messageId).toBe(first.messageId);
    // Each delivery composed its own link; whichever copy a de-duplicating receiver keeps works.
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    await reset(user.email, tokenOf(first)).expect(204);
    await reset(user.email, tokenOf(second)).expect(422); // a reset drops the user's other links

    // A later email is another message: its own Message-ID, and it voids both links of the first.
    const other = await t.makeUser({ email: 'crash-then-again@example.com' });
    await t.http.post('/api/forgot-password').send({ email: other.email }).expect(204);
    await t.deliverMail();
    await crashBeforeMark(other.email);
    await t.deliverMail();
    await t.http.post('/api/forgot-password').send({ email: other.email }).expect(204);
    await t.deliverMail();
    const [copy1, copy2, later] = smtp.to(other.email);
    expect(copy2.messageId).toBe(copy1.messageId);
    expect(later.messageId).not.toBe(copy1.messageId);
    await reset(other.email, tokenOf(copy1)).expect(422);
    await reset(other.email, tokenOf(copy2)).expect(422);
    await reset(other.email, tokenOf(later)).expect(204);
  });

  it('delivers each message exactly once when two workers run at once', async () => {
    // On a server, the second worker is a second app on the same database, as a replica would be;
    // the embedded database is one session, so there it is a second worker inside this app.
    const replica = process.env.TEST_DATABASE_URL
      ? await createTestApp({
          mailSender: 'configured',
          database: t.database,
          env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_BATCH_SIZE: '5' },
        })
      : undefined;
    const secondWorker =
      replica?.app.get(OutboxWorker) ??
      new OutboxWorker(t.app.get(OutboxRepository), t.app.get(DeliveryValues), t.app.get(MailSender), {
        ...t.app.get<BackendConfig>(BACKEND_CONFIG),
        MAIL_BATCH_SIZE: 5,
      });
    try {
      const outbox = t.app.get(MailOutbox);
      const recipients = Array.from({ length: 60 }, (_, i) => `replica-${i}@example.com`);
      for (const to of recipients) {
        await outbox.enqueue({
          template: 'manager-added',
          to,
          language: 'en-gb',
          payload: { first_name: 'Max', organization_name: to },
        });
      }
      const rounds = await Promise.all([
        t.deliverMail(),
        secondWorker.deliverDue(),
        t.deliverMail(),
        secondWorker.deliverDue(),
      ]);
      expect(rounds.reduce((sum, round) => sum + round.sent, 0)).toBe(60);
      for (const to of recipients) expect(smtp.to(to)).toHaveLength(1);
      const states = await t.dataSource.query<{ state: string; attempts: number }[]>(
        `SELECT DISTINCT state, attempts FROM mail_outbox WHERE recipient LIKE 'replica-%'`,
      );
      expect(states).toEqual([{ state: 'sent', attempts: 1 }]);
    } finally {
      await replica?.close();
    }
  });

  it('writes no message for a change that rolls back', async () => {
    const enqueueThenFail = t.app.get(Transactions).run(async () => {
      await t.app.get(MailOutbox).enqueue({
        template: 'manager-added',
        to: 'rolled-back@example.com',
        language: 'en-gb',
        payload: { first_name: 'Ina', organization_name: 'Never' },
      });
      throw new Error('the change failed after its email was written');
    });
    await expect(enqueueThenFail).rejects.toThrow('the change failed');
    expect(await outboxRows(t, 'rolled-back@example.com')).toEqual([]);

    // Through the API: an organization refused by validation leaves neither a message nor an account.
    const admin = await t.signedInSuperAdmin();
    await admin.agent
      .post('/api/organizations')
      .set('X-Viewing-As', 'super-admin')
      .send({
        name: 'Half written',
        type: 'reseller',
        manager_email: 'refused.manager@example.com',
        manager_first_name: 'Ugo',
        manager_last_name: 'Rossi',
        preferred_language: 'fr-ch',
        commission: 12.5,
      })
      .expect(422);
    await t.deliverMail();
    expect(await outboxRows(t, 'refused.manager@example.com')).toEqual([]);
    expect(smtp.to('refused.manager@example.com')).toEqual([]);
  });
});

describe('mail outbox: attempts exhausted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAIL_MAX_ATTEMPTS: '2', MAIL_RETRY_BASE_SECONDS: '1' } });
  });
  afterAll(() => t.close());

  it('marks the message failed after MAIL_MAX_ATTEMPTS and shows it in mail_outbox_messages', async () => {
    const user = await t.makeUser({ email: 'never-reached@example.com' });
    t.mail.failure = new Error('550 mailbox unavailable');
    await t.http.post('/api/forgot-password').send({ email: user.email }).expect(204);
    expect(await t.deliverMail()).toEqual({ sent: 0, retried: 1, failed: 0 });
    await sleep(1100);
    expect(await t.deliverMail()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await outboxRows(t, user.email)).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 2, last_error: '550 mailbox unavailable' }),
    ]);

    // A failed message stays failed: the transport coming back does not resend it.
    t.mail.failure = undefined;
    await sleep(2100);
    expect(await t.deliverMail()).toEqual({ sent: 0, retried: 0, failed: 0 });

    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toContain('mail_outbox_messages{state="failed"} 1');
    expect(metrics.text).toContain('mail_outbox_messages{state="pending"} 0');
    expect(metrics.text).toContain('mail_outbox_oldest_pending_age_seconds 0');
  });
});

describe('mail outbox: the local transport', () => {
  it('writes each message as an .eml file that a mail client (or a parser) reads', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'rt-mail-'));
    try {
      const sender = new LocalFileMailSender(directory, 'Road Trip <no-reply@localhost>');
      await sender.send({
        to: 'local@example.com',
        messageId: '<0b7e0a52-54a4-4b8e-9d0b-1f0c2f9a6c3e@localhost>',
        template: 'invitation',
        subject: 'You are invited to manage Lakeside',
        text: 'Choose your password: http://localhost:5173/accept-invitation?token=abc&email=local%40example.com\n',
        html: '<p>Choose your password</p>\n',
        data: {},
      });
      const [file, text] = (await readdir(directory)).sort();
      expect(file).toMatch(/-invitation-local@example\.com\.eml$/);
      expect(text).toBe(file.replace(/\.eml$/, '.txt'));
      expect(await readFile(join(directory, text), 'utf8')).toContain(
        'http://localhost:5173/accept-invitation?token=abc&email=local%40example.com',
      );
      const parsed = await simpleParser(await readFile(join(directory, file)));
      expect(parsed.subject).toBe('You are invited to manage Lakeside');
      expect(parsed.messageId).toBe('<0b7e0a52-54a4-4b8e-9d0b-1f0c2f9a6c3e@localhost>');
      expect(parsed.text).toContain('accept-invitation?token=abc');
      expect(parsed.html).toContain('<p>Choose your password</p>');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
