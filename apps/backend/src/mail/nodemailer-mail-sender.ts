import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { Attributes, inSpan, SpanKind } from '@rt/telemetry';
import { MailMessage, MailSender } from './mail-sender';

/** The message as Nodemailer sends it, whichever transport: both senders build the same email. */
function nodemailerMessageOf(from: string, message: MailMessage) {
  return {
    from,
    to: message.to,
    messageId: message.messageId,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: { 'X-Template': message.template },
  };
}

/** Deployments: SMTP through Nodemailer, pooled connections, timeouts below the outbox lease. */
export class SmtpMailSender extends MailSender {
  private readonly transporter: Transporter;
  private readonly serverAttributes: Attributes;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    timeoutMs: number,
  ) {
    super();
    const url = new URL(smtpUrl);
    const port = url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587;
    this.serverAttributes = { 'server.address': url.hostname, 'server.port': port };
    this.transporter = createTransport({
      host: url.hostname,
      port,
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      pool: true,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  /** Traced as a client call to the SMTP server (its address, never the message or its recipient). */
  async send(message: MailMessage): Promise<void> {
    await inSpan('smtp send', { kind: SpanKind.CLIENT, attributes: this.serverAttributes }, async () => {
      await this.transporter.sendMail(nodemailerMessageOf(this.from, message));
    });
  }

  override async close(): Promise<void> {
    this.transporter.close();
  }
}

/**
 * The default (local runs): each message is built by Nodemailer as it would be sent and written
 * as an `.eml` file under the mail directory (any mail client opens it), with its plain-text part
 * beside it as `.txt` (the `.eml` is quoted-printable, which wraps links); it is logged without
 * its body.
 */
export class LocalFileMailSender extends MailSender {
  private readonly logger = new Logger('Mail');
  private readonly transporter: Transporter;

  constructor(
    private readonly directory: string,
    private readonly from: string,
  ) {
    super();
    this.transporter = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transporter.sendMail(nodemailerMessageOf(this.from, message));
    await mkdir(this.directory, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.directory, `${stamp}-${message.template}-${safeFileName(message.to)}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    await writeFile(file.replace(/\.eml$/, '.txt'), message.text, { mode: 0o600 });
    this.logger.log({ template: message.template, to: message.to, file }, 'Mail written to a local file');
  }
}

const safeFileName = (value: string): string => value.replace(/[^A-Za-z0-9@._-]/g, '_').slice(0, 100);
