import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  BUILT,
  ContractValidator,
  freePort,
  listOperations,
  NodeProcess,
  type OpenApiDocument,
  RecordingSmtpServer,
  REPOSITORY_ROOT,
  ServiceProcess,
  ThrowawayCluster,
  waitFor,
} from '@rt/testing';

/**
 * Faults of the backend, on its built copy run as processes against a throwaway
 * PostgreSQL cluster of the test's own (`initdb`/`pg_ctl` in a temporary folder):
 *  1. the database crashes (`immediate`) and later shuts down (`fast`) under a stream of writes and
 *     reads: readiness answers 503 and liveness 200 while it is down, requests get a 503
 *     `service_unavailable`, the same process recovers once it is back, and every acknowledged write
 *     is in the database afterwards;
 *  2. the SMTP server goes down: emails wait in the outbox, retried, and are each delivered exactly
 *     once when a server listens again on the same port;
 *  3. two replicas on one database (started together, so they migrate at the same moment): each
 *     email caused through either is delivered once, and each activation code moves once when both
 *     receive the same bulk cancel at the same moment.
 * The figures go to `.test-results/faults-backend.json` (docs/reliability.md quotes them).
 */
const BACKEND_CONTRACT = join(REPOSITORY_ROOT, 'apps/backend/contract/openapi.json');
const ADMIN_EMAIL = 'faults.admin@example.com';
const ADMIN_PASSWORD = 'fault injection passphrase 1';
/** How long a recovery (readiness, a write, a delivery) may take. */
const RECOVERY_BOUND_MS = 30_000;

const run = promisify(execFile);

interface Answer {
  /** 0 when no HTTP answer came (refused, reset, timed out). */
  status: number;
  body: Record<string, unknown> | null;
  retryAfter: string | null;
  /** `METHOD path`, and the `X-Request-Id` the backend answered (its log lines carry it). */
  request: string;
  requestId: string | null;
  failure?: string;
}

/** One JSON call; a transport failure is an answer with status 0, never a throw. */
async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; hat?: string } = {},
): Promise<Answer> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        ...(options.hat ? { 'X-Viewing-As': options.hat } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      body = { unparsed: text.slice(0, 200) };
    }
    return {
      status: response.status,
      body,
      retryAfter: response.headers.get('retry-after'),
      request: `${method} ${path}`,
      requestId: response.headers.get('x-request-id'),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      status: 0,
      body: null,
      retryAfter: null,
      request: `${method} ${path}`,
      requestId: null,
      failure: cause?.code ?? cause?.message ?? (error as Error).message,
    };
  }
}

/** How many times each value occurs. */
const countBy = (values: string[]): Record<string, number> =>
  values.reduce<Record<string, number>>(
    (counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }),
    {},
  );

/** The error type a request's log line names (`err.type`), or `unknown`. */
function errorTypeOf(line: string | undefined): string {
  try {
    return (JSON.parse(line ?? '') as { err?: { type?: string } }).err?.type ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A built backend run as a process (ServiceProcess), with the log lines of its 500 answers kept apart. */
class BackendProcess {
  private constructor(
    private readonly process: ServiceProcess,
    /** The log lines of 500 answers, kept whole however much the process writes. */
    private readonly errorLines: string[],
  ) {}

  static async spawn(name: string, env: Record<string, string>): Promise<BackendProcess> {
    const errorLines: string[] = [];
    const started = await ServiceProcess.start({
      name,
      script: BUILT.backendMain,
      env,
      // The outages log a line per 503: keep the last part, and every 500's line apart.
      keepOutput: 400_000,
      onLine: (line) => {
        if (line.includes('"statusCode":500')) errorLines.push(line);
      },
    });
    return new BackendProcess(started, errorLines);
  }

  get base(): string {
    return this.process.base;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get alive(): boolean {
    return this.process.alive;
  }

  /** The last part of what the process wrote. */
  tail(): string {
    return this.process.tail();
  }

  /** The log lines of 500 answers that name `requestId`. */
  linesAbout(requestId: string | null): string[] {
    return requestId ? this.errorLines.filter((line) => line.includes(requestId)) : [];
  }

  async ready(timeoutMs = 90_000): Promise<void> {
    await this.process.ready(timeoutMs, 200);
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

function deliveryTally(smtp: RecordingSmtpServer, recipients: string[]) {
  const counts = [...smtp.countsFor(recipients).values()];
  return {
    delivered: counts.filter((count) => count >= 1).length,
    lost: counts.filter((count) => count === 0).length,
    duplicates: counts.reduce((sum, count) => sum + Math.max(0, count - 1), 0),
  };
}

/** What each test measured, written to `.test-results/faults-backend.json`. */
const figures: {
  startedAt: string;
  runtimeSeconds?: number;
  faultsInjected: string[];
  databaseOutage: Record<string, unknown>[];
  smtpDown?: Record<string, unknown>;
  replicas?: Record<string, unknown>;
} = { startedAt: new Date().toISOString(), faultsInjected: [], databaseOutage: [] };

describe('backend faults (throwaway PostgreSQL cluster, built backend as processes)', () => {
  const startedAt = Date.now();
  let cluster: ThrowawayCluster | undefined;
  let workDir: string;
  let smtp: RecordingSmtpServer;
  /** Every database starts as a copy of this one: migrated, with the super-admin. */
  const TEMPLATE = 'faults_template';

  /** The environment of a backend on `database`, mail worker off unless `extra` turns it on. */
  const backendEnv = (database: string, extra: Record<string, string> = {}): Record<string, string> => ({
    APP_ENV: 'local',
    DATABASE_URL: cluster!.url(database),
    DB_MIGRATE_ON_START: 'true',
    DATA_DIR: join(workDir, 'database'),
    MAIL_DIR: join(workDir, 'mail'),
    IMAGE_DIR: join(workDir, 'images'),
    LOG_LEVEL: 'warn',
    PASSWORD_SCRYPT_N: '1024',
    PASSWORD_SCRYPT_P: '1',
    SHUTDOWN_GRACE_MS: '1000',
    SMTP_URL: '',
    MAIL_WORKER_ENABLED: 'false',
    ...extra,
  });

  /** The mail settings of a backend whose worker delivers to `smtp` quickly and retries after 1 s, 2 s, 4 s … */
  const mailEnv = (from: string): Record<string, string> => ({
    SMTP_URL: smtp.url,
    MAIL_FROM: from,
    MAIL_WORKER_ENABLED: 'true',
    MAIL_POLL_INTERVAL_MS: '50',
    MAIL_RETRY_BASE_SECONDS: '1',
    MAIL_MAX_ATTEMPTS: '20',
    MAIL_LEASE_SECONDS: '10',
    MAIL_BATCH_SIZE: '2',
  });

  /** `user:create-admin` on `database` (it migrates first, as a local start does). */
  async function createAdmin(database: string): Promise<void> {
    try {
      await run(process.execPath, [BUILT.backendCreateAdmin], {
        cwd: REPOSITORY_ROOT,
        env: {
          ...process.env,
          ...backendEnv(database),
          ADMIN_EMAIL,
          ADMIN_PASSWORD,
        },
        timeout: 90_000,
      });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`user:create-admin failed: ${stderr || stdout || (error as Error).message}`);
    }
  }

  async function signIn(backend: BackendProcess): Promise<string> {
    const login = await call(backend.base, 'POST', '/api/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, device_name: 'fault tests' },
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(login)}\n${backend.tail()}`);
    return login.body!.token as string;
  }

  /** A ready backend on `database`, a copy of the migrated template (its admin included), and the admin's token. */
  async function backendOnTemplateCopy(database: string, sender: string) {
    await cluster!.query(`CREATE DATABASE ${database} TEMPLATE ${TEMPLATE}`);
    const backend = await BackendProcess.spawn('backend', backendEnv(database, mailEnv(sender)));
    await backend.ready();
    return { backend, token: await signIn(backend) };
  }

  /** Creates an organization whose new manager is invited by email; answers the manager's address. */
  async function createOrganization(backend: BackendProcess, token: string, label: string): Promise<string> {
    const managerEmail = `manager.${label}@example.com`;
    const created = await call(backend.base, 'POST', '/api/organizations', {
      token,
      hat: 'super-admin',
      body: {
        name: `Fault ${label}`,
        type: 'reseller',
        manager_email: managerEmail,
        manager_first_name: 'Mia',
        manager_last_name: label,
        preferred_language: 'en-gb',
      },
    });
    if (created.status !== 201) {
      throw new Error(`creating organization ${label} failed: ${JSON.stringify(created)}\n${backend.tail()}`);
    }
    return managerEmail;
  }

  const outboxOf = (database: string, recipients: string[]) =>
    cluster!.query<{ recipient: string; state: string; attempts: number; last_error: string | null }>(
      `SELECT recipient, state, attempts, last_error FROM mail_outbox WHERE recipient = ANY($1::text[])`,
      [recipients],
      database,
    );

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'rt-faults-backend-'));
    smtp = new RecordingSmtpServer(await freePort());
    await smtp.start();
    cluster = await ThrowawayCluster.create();
    await cluster.createDatabase(TEMPLATE);
    await createAdmin(TEMPLATE);
  }, 120_000);

  afterAll(async () => {
    await NodeProcess.stopAll();
    await smtp?.stop();
    await cluster?.destroy();
    if (workDir) await rm(workDir, { recursive: true, force: true });
    figures.runtimeSeconds = Math.round((Date.now() - startedAt) / 100) / 10;
    const directory = join(REPOSITORY_ROOT, '.test-results');
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'faults-backend.json'), `${JSON.stringify(figures, null, 2)}\n`);
  }, 60_000);

  it('survives the database crashing and shutting down under load: 503 meanwhile, the same process recovers, no acknowledged write lost', async () => {
    const database = 'faults_outage';
    // The mail worker runs too: it must come through the outages as well.
    const { backend, token } = await backendOnTemplateCopy(database, 'Road Trip <no-reply@outage.test>');
    const pid = backend.pid;

    /** Where the fault stands; a request sent and answered while `down` must be a clear 503. */
    let phase: 'up' | 'stopping' | 'down' | 'starting' = 'up';
    let stopLoad = false;
    const stats = {
      requestsTried: 0,
      writesTried: 0,
      readsTried: 0,
      byStatus: {} as Record<string, number>,
      /** 5xx other than 503, with the phases they were sent and answered in. */
      serverErrors: [] as (Answer & { phases: string })[],
      /** No HTTP answer at all (the process must keep answering). */
      transportFailures: [] as Answer[],
      /** Answers to requests sent and answered wholly inside the outage that are not the clear 503. */
      unclearOutageAnswers: [] as Answer[],
      /** The first clear 503 of each request kind, checked against the contract at the end. */
      outageSamples: new Map<string, Answer>(),
      outageAnswers: 0,
      /** Writes answered 2xx: the tag's id and name. */
      acknowledged: [] as { id: string; name: string }[],
      acknowledgedAfterRecovery: 0,
    };
    let recovered = false;
    const MAX_REQUESTS = 40_000;

    const record = (answer: Answer, sentIn: typeof phase) => {
      stats.requestsTried += 1;
      stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
      if (answer.status === 0) stats.transportFailures.push(answer);
      else if (answer.status >= 500 && answer.status !== 503) {
        stats.serverErrors.push({ ...answer, phases: `${sentIn} → ${phase}` });
      }
      if (sentIn === 'down' && phase === 'down') {
        stats.outageAnswers += 1;
        const clear =
          answer.status === 503 &&
          answer.body?.error === 'service_unavailable' &&
          typeof answer.body?.message === 'string' &&
          /^\d+$/.test(answer.retryAfter ?? '');
        if (!clear) stats.unclearOutageAnswers.push(answer);
        else {
          const kind = answer.request.split('?')[0];
          if (!stats.outageSamples.has(kind)) stats.outageSamples.set(kind, answer);
        }
      }
    };

    /** One client: a write (a new tag), then a read, again and again; a short pause after a failure. */
    const client = async (clientId: number) => {
      for (let n = 0; !stopLoad && stats.requestsTried < MAX_REQUESTS; n++) {
        const name = `fault ${clientId}-${n}`;
        const sentIn = phase;
        const afterRecovery = recovered;
        stats.writesTried += 1;
        const write = await call(backend.base, 'POST', '/api/tags', {
          token,
          hat: 'super-admin',
          body: { type: 'theme', names: { fr: name }, icon: 'fault-test' },
        });
        record(write, sentIn);
        if (write.status >= 200 && write.status < 300) {
          stats.acknowledged.push({ id: write.body!.id as string, name });
          if (afterRecovery) stats.acknowledgedAfterRecovery += 1;
        }
        const readIn = phase;
        stats.readsTried += 1;
        const read =
          n % 2 === 0
            ? await call(backend.base, 'GET', '/api/tags?type=theme&per_page=5', {
                token,
                hat: 'super-admin',
              })
            : await call(backend.base, 'GET', '/api/user', { token });
        record(read, readIn);
        await sleep(write.status === 201 && read.status === 200 ? 5 : 25);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map((clientId) => client(clientId)));

    try {
      for (const mode of ['immediate', 'fast'] as const) {
        const acknowledgedBefore = stats.acknowledged.length;
        await sleep(1500);
        const before = { acknowledged: stats.acknowledged.length, outageAnswers: stats.outageAnswers };
        expect(before.acknowledged).toBeGreaterThan(acknowledgedBefore); // the load runs

        phase = 'stopping';
        figures.faultsInjected.push(`database stop --mode ${mode}`);
        const downAt = Date.now();
        await cluster!.stop(mode);
        phase = 'down';
        // While it is down: not ready, still live, and the load meets 503s.
        const probes: { ready: number[]; live: number[] } = { ready: [], live: [] };
        for (let probe = 0; probe < 5; probe++) {
          probes.ready.push((await call(backend.base, 'GET', '/health/ready')).status);
          probes.live.push((await call(backend.base, 'GET', '/health/live')).status);
          await sleep(400);
        }
        phase = 'starting';
        expect(probes.ready).toEqual([503, 503, 503, 503, 503]);
        expect(probes.live).toEqual([200, 200, 200, 200, 200]);
        expect(stats.outageAnswers).toBeGreaterThan(before.outageAnswers);

        await cluster!.start();
        const upAt = Date.now();
        phase = 'up';
        recovered = true;
        const acknowledgedAfter = stats.acknowledgedAfterRecovery;
        await waitFor(
          async () => ((await call(backend.base, 'GET', '/health/ready')).status === 200 ? true : undefined),
          RECOVERY_BOUND_MS,
          () => `not ready again after the database came back (${mode}):\n${backend.tail()}`,
        );
        const readyAgainMs = Date.now() - upAt;
        await waitFor(
          () => (stats.acknowledgedAfterRecovery >= acknowledgedAfter + 20 ? true : undefined),
          RECOVERY_BOUND_MS,
          () => `writes do not succeed again after the database came back (${mode}):\n${backend.tail()}`,
        );
        const writingAgainMs = Date.now() - upAt;
        expect(backend.alive).toBe(true);
        expect(backend.pid).toBe(pid); // the same process, never restarted
        figures.databaseOutage.push({
          mode,
          outageMs: upAt - downAt,
          readyAgainMs,
          writingAgainMs,
          readinessDuringOutage: probes.ready,
          livenessDuringOutage: probes.live,
        });
      }
      await sleep(1000);
    } finally {
      stopLoad = true;
      await load;
    }

    // Every acknowledged write is there, once (checked on the cluster itself).
    const ids = stats.acknowledged.map((write) => write.id);
    const stored = await cluster!.query<{ id: string; name_fr: string }>(
      `SELECT id, name_fr FROM tags WHERE id = ANY($1::uuid[])`,
      [ids],
      database,
    );
    const storedNames = new Map(stored.map((row) => [row.id, row.name_fr]));
    const lost = stats.acknowledged.filter((write) => storedNames.get(write.id) !== write.name);
    const outage = {
      requestsTried: stats.requestsTried,
      writesTried: stats.writesTried,
      readsTried: stats.readsTried,
      answersByStatus: stats.byStatus,
      answersInsideOutages: stats.outageAnswers,
      unclearAnswersInsideOutages: stats.unclearOutageAnswers.length,
      serverErrorsOtherThan503: stats.serverErrors.length,
      serverErrorKinds: countBy(
        stats.serverErrors.map((answer) => errorTypeOf(backend.linesAbout(answer.requestId)[0])),
      ),
      transportFailures: stats.transportFailures.length,
      writesAcknowledged: stats.acknowledged.length,
      writesLost: lost.length,
      sameProcess: backend.pid === pid && backend.alive,
    };
    figures.databaseOutage.push(outage);

    // The mail worker's rounds failed while the database was down; it still delivers.
    const mailedAt = Date.now();
    const invited = await createOrganization(backend, token, 'after-outages');
    await waitFor(
      () => (deliveryTally(smtp, [invited]).delivered === 1 ? true : undefined),
      RECOVERY_BOUND_MS,
      () => `the mail worker did not deliver after the outages:\n${backend.tail()}`,
    );
    Object.assign(outage, { mailDeliveredAfterOutagesWithinMs: Date.now() - mailedAt });

    const sample = (answers: Answer[]) =>
      answers
        .slice(0, 3)
        .map((answer) => `${JSON.stringify(answer)}\n${backend.linesAbout(answer.requestId).join('\n')}`)
        .join('\n');
    expect({ writesLost: lost.length, sameProcess: outage.sameProcess }).toEqual({
      writesLost: 0,
      sameProcess: true,
    });
    expect(stats.transportFailures.slice(0, 3)).toEqual([]);
    // The outage's 503 is part of each operation's contract: status, envelope and Retry-After.
    const contract = JSON.parse(readFileSync(BACKEND_CONTRACT, 'utf8')) as OpenApiDocument;
    const operations = listOperations(contract);
    const validator = new ContractValidator(contract, 'backend');
    expect([...stats.outageSamples.keys()].sort()).toEqual([
      'GET /api/tags',
      'GET /api/user',
      'POST /api/tags',
    ]);
    for (const [kind, answer] of stats.outageSamples) {
      const [method, path] = kind.split(' ');
      const operation = operations.find(
        (candidate) => candidate.key === `${method} ${path.replace(/^\/api/, '')}`,
      )!;
      const problems = validator.check(operation, {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(answer.body)),
      });
      expect({ kind, problems: problems.filter((problem) => problem.kind !== 'server-error') }).toEqual({
        kind,
        problems: [],
      });
      const documented = contract.paths[operation.path][method.toLowerCase()] as {
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
      expect(documented.responses['503'].headers).toHaveProperty('Retry-After');
    }
    if (stats.serverErrors.length > 0 || stats.unclearOutageAnswers.length > 0) {
      throw new Error(
        `${stats.serverErrors.length} answers were a 5xx other than 503 (e.g. ${sample(stats.serverErrors)}); ` +
          `${stats.unclearOutageAnswers.length} of ${stats.outageAnswers} answers inside the outages were not ` +
          `503 service_unavailable with Retry-After (e.g. ${sample(stats.unclearOutageAnswers)})`,
      );
    }
    await backend.stop();
  }, 120_000);

  it('keeps emails while the SMTP server is down and delivers each exactly once when it is back', async () => {
    const database = 'faults_smtp';
    const { backend, token } = await backendOnTemplateCopy(database, 'Road Trip <no-reply@smtp-down.test>');

    // The path works while the server is up.
    const first = await createOrganization(backend, token, 'smtp-warm-up');
    await waitFor(
      () => (deliveryTally(smtp, [first]).delivered === 1 ? true : undefined),
      RECOVERY_BOUND_MS,
      () => `the warm-up email was not delivered:\n${backend.tail()}`,
    );

    await smtp.stop();
    figures.faultsInjected.push('SMTP server down');
    const N = 20;
    const recipients: string[] = [];
    for (let batch = 0; batch < N; batch += 4) {
      recipients.push(
        ...(await Promise.all(
          [0, 1, 2, 3].map((i) => createOrganization(backend, token, `smtp-${batch + i}`)),
        )),
      );
    }
    // Each message fails at least twice (a retry after the first back-off), and stays pending.
    const retrying = await waitFor(
      async () => {
        const rows = await outboxOf(database, recipients);
        return rows.length === N && rows.every((row) => row.attempts >= 2) ? rows : undefined;
      },
      RECOVERY_BOUND_MS,
      () => `the worker did not retry every message:\n${backend.tail()}`,
    );
    expect(retrying.map((row) => row.state)).toEqual(Array(N).fill('pending'));
    expect(retrying.every((row) => (row.last_error ?? '').length > 0)).toBe(true);
    const deliveredWhileDown = deliveryTally(smtp, recipients).delivered;
    expect(deliveredWhileDown).toBe(0);

    await smtp.start();
    const backAt = Date.now();
    await waitFor(
      () => (deliveryTally(smtp, recipients).delivered === N ? true : undefined),
      RECOVERY_BOUND_MS,
      () => `only ${deliveryTally(smtp, recipients).delivered} of ${N} delivered:\n${backend.tail()}`,
    );
    const deliveredWithinMs = Date.now() - backAt;
    await sleep(1500); // a duplicate would arrive meanwhile
    const tally = deliveryTally(smtp, recipients);
    const rows = await outboxOf(database, recipients);
    figures.smtpDown = {
      emailsCaused: N,
      attemptsWhileDown: retrying.reduce((sum, row) => sum + row.attempts, 0),
      deliveredWhileDown,
      emailsDelivered: tally.delivered,
      emailsLost: tally.lost,
      duplicates: tally.duplicates,
      deliveredWithinMs,
      outboxSent: rows.filter((row) => row.state === 'sent').length,
    };
    expect(tally).toEqual({ delivered: N, lost: 0, duplicates: 0 });
    expect(rows.map((row) => row.state)).toEqual(Array(N).fill('sent'));
    await backend.stop();
  }, 120_000);

  it('runs two replicas on one database: they start together, deliver each email once and move each code once', async () => {
    const database = 'faults_replicas';
    await cluster!.createDatabase(database); // empty: both replicas migrate it at the same moment
    const [a, b] = await Promise.all([
      BackendProcess.spawn(
        'replica A',
        backendEnv(database, mailEnv('Replica A <replica-a@road-trip.test>')),
      ),
      BackendProcess.spawn(
        'replica B',
        backendEnv(database, mailEnv('Replica B <replica-b@road-trip.test>')),
      ),
    ]);
    const spawnedAt = Date.now();
    await Promise.all([a.ready(), b.ready()]);
    const bothReadyMs = Date.now() - spawnedAt;
    const duplicateMigrations = await cluster!.query(
      `SELECT name FROM migrations GROUP BY name HAVING count(*) > 1`,
      [],
      database,
    );
    expect(duplicateMigrations).toEqual([]);
    await createAdmin(database);
    const token = await signIn(a);
    const replicas = [a, b];

    // (a) Emails caused through both replicas, four at a time; both workers poll every 50 ms.
    const M = 40;
    const recipients: string[] = [];
    for (let batch = 0; batch < M; batch += 4) {
      recipients.push(
        ...(await Promise.all(
          [0, 1, 2, 3].map((i) => createOrganization(replicas[i % 2], token, `replica-${batch + i}`)),
        )),
      );
    }
    await waitFor(
      () => (deliveryTally(smtp, recipients).delivered === M ? true : undefined),
      RECOVERY_BOUND_MS,
      () => `only ${deliveryTally(smtp, recipients).delivered} of ${M} delivered:\n${a.tail()}\n${b.tail()}`,
    );
    await sleep(1500); // a duplicate would arrive meanwhile
    const tally = deliveryTally(smtp, recipients);
    const ours = smtp.received.filter((mail) => mail.recipients.some((r) => recipients.includes(r)));
    const bySender = {
      a: ours.filter((mail) => mail.sender === 'replica-a@road-trip.test').length,
      b: ours.filter((mail) => mail.sender === 'replica-b@road-trip.test').length,
    };
    const rows = await outboxOf(database, recipients);

    // (b) The same bulk cancel sent to both replicas at once, round after round.
    const organizationId = (
      await cluster!.query<{ id: string }>(
        `SELECT id FROM organizations WHERE name = $1`,
        ['Fault replica-0'],
        database,
      )
    )[0].id;
    const ROUNDS = 6;
    const CODES = 200;
    const codeFigures = {
      rounds: ROUNDS,
      codes: 0,
      movedOnce: 0,
      movedTwice: 0,
      notMoved: 0,
      historyRowsNotOne: 0,
    };
    for (let round = 0; round < ROUNDS; round++) {
      const batch = await call(replicas[round % 2].base, 'POST', '/api/activation-codes/batches', {
        token,
        hat: 'super-admin',
        body: { organisation_id: organizationId, count: CODES },
      });
      expect(batch.status).toBe(201);
      const ids = (
        await cluster!.query<{ id: string }>(
          `SELECT id FROM activation_codes WHERE batch_id = $1`,
          [batch.body!.id],
          database,
        )
      ).map((row) => row.id);
      expect(ids).toHaveLength(CODES);
      const answers = await Promise.all(
        [ids, [...ids].reverse()].map((order, i) =>
          call(replicas[i].base, 'PUT', '/api/activation-codes/status', {
            token,
            hat: 'super-admin',
            body: { ids: order, status: 'cancelled' },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const updatedIn = new Map<string, number>();
      for (const answer of answers) {
        for (const code of answer.body!.updated as { id: string }[]) {
          updatedIn.set(code.id, (updatedIn.get(code.id) ?? 0) + 1);
        }
        for (const skipped of answer.body!.skipped as { reason: string }[]) {
          expect(skipped.reason).toBe('already_cancelled');
        }
      }
      const history = await cluster!.query<{ code_id: string; n: string }>(
        `SELECT c.id AS code_id, count(e.id) AS n
           FROM activation_codes c
           LEFT JOIN activation_code_events e ON e.code_id = c.id AND e.action = 'cancel'
          WHERE c.batch_id = $1
          GROUP BY c.id`,
        [batch.body!.id],
        database,
      );
      codeFigures.codes += ids.length;
      codeFigures.movedOnce += ids.filter((id) => updatedIn.get(id) === 1).length;
      codeFigures.movedTwice += ids.filter((id) => (updatedIn.get(id) ?? 0) > 1).length;
      codeFigures.notMoved += ids.filter((id) => !updatedIn.has(id)).length;
      codeFigures.historyRowsNotOne += history.filter((row) => Number(row.n) !== 1).length;
    }

    figures.faultsInjected.push('two replicas on one database');
    figures.replicas = {
      bothReadyMs,
      duplicateMigrations: duplicateMigrations.length,
      emailsCaused: M,
      emailsDelivered: tally.delivered,
      emailsLost: tally.lost,
      duplicates: tally.duplicates,
      deliveredByReplica: bySender,
      outboxAttemptsAboveOne: rows.filter((row) => row.attempts !== 1).length,
      activationCodes: codeFigures,
    };
    expect(tally).toEqual({ delivered: M, lost: 0, duplicates: 0 });
    expect(rows.map((row) => [row.state, row.attempts])).toEqual(Array(M).fill(['sent', 1]));
    // Both workers took part (the race was real).
    expect(bySender.a).toBeGreaterThan(0);
    expect(bySender.b).toBeGreaterThan(0);
    expect(codeFigures).toEqual({
      rounds: ROUNDS,
      codes: ROUNDS * CODES,
      movedOnce: ROUNDS * CODES,
      movedTwice: 0,
      notMoved: 0,
      historyRowsNotOne: 0,
    });
    await Promise.all([a.stop(), b.stop()]);
  }, 120_000);
});
