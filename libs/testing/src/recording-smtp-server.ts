import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-cased. */
  recipients: string[];
  /** The envelope's sender (MAIL FROM): each replica sends from its own address. */
  sender: string;
  messageId: string;
  template: string;
  /** The whole message as sent (headers and body). */
  raw: string;
}

/** A real SMTP server on a fixed loopback port that records every message; it can go down and come back. */
export class RecordingSmtpServer {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;

  constructor(readonly port: number) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // Going down closes the backends' pooled connections at once (the default waits 30 s).
      closeTimeout: 100,
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const header = raw.split(/\r?\n\r?\n/)[0];
          const field = (name: string) =>
            new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(header)?.[1].trim() ?? '';
          this.received.push({
            recipients: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
            sender: session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '',
            messageId: field('Message-ID'),
            template: field('X-Template'),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Messages received per expected recipient. */
  countsFor(recipients: string[]): Map<string, number> {
    const counts = new Map(recipients.map((recipient) => [recipient.toLowerCase(), 0]));
    for (const mail of this.received) {
      for (const recipient of mail.recipients) {
        const count = counts.get(recipient);
        if (count !== undefined) counts.set(recipient, count + 1);
      }
    }
    return counts;
  }
}

/** Delivered, lost (never received) and duplicates (received more than once) among `recipients`. */
