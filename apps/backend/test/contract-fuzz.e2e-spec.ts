import {
  combineSnapshots,
  databaseSnapshotter,
  failureCount,
  formatFailures,
  formatSummary,
  type FieldContext,
  type FuzzOperation,
  type FuzzRequest,
  type FuzzReport,
  type OpenApiDocument,
  readsFirst,
  runContractFuzz,
  snapshotDifferences,
  type StateSnapshot,
  writeFuzzReport,
} from '@rt/testing';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKEND_CONFIG, type BackendConfig } from '../src/config';
import { CONTRACT_SNAPSHOT } from '../src/contract/write-contract';
import { MAX_IMAGE_BYTES } from '../src/images/images.service';
import type { Organization } from '../src/organizations/organization.entity';
import { type SignedIn, TEST_PASSWORD } from './factories';
import { noise } from './image-fixtures';
import { createTestApp, TestApp } from './test-app';
import { MANY_CLAIMS_ENV, tripFixtures } from './trip-fixtures';

/**
 * Fixed: the same requests on every run. `FUZZ_SEED` and `FUZZ_RUNS` explore further (other
 * seeds, more requests); fix what they find, the default stays the one `pnpm test` runs.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** Requests per operation: 54 operations × this stays within the suite's time budget. */
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 60);
const RESULTS_FILE = join(__dirname, '..', '..', '..', '.test-results', 'fuzz-backend.json');

/**
 * Addresses that read like another (docs/decisions.md D-77): refused (422) or matched in their
 * canonical form, never a 500.
 */
const HOSTILE_ADDRESSES = [
  'in\u200Bfo@example.com',
  'info\u202E@example.com',
  '\uFEFFinfo@example.com',
  'info@\u0435xample.com',
  '\u212Aelvin@example.com',
  'İnfo@example.com',
  'ｉｎｆｏ@example.com',
  'info@bücher.de',
  'info@xn--bcher-kva.de',
];

/** Limits high enough that fuzzing reaches validation (429 stays documented where a route throttles). */
const UNTHROTTLED = {
  ...MANY_CLAIMS_ENV,
  THROTTLE_LOGIN_LIMIT: '100000',
  THROTTLE_LOGIN_ADDRESS_LIMIT: '100000',
  THROTTLE_PASSWORD_LIMIT: '100000',
  THROTTLE_PASSWORD_ADDRESS_LIMIT: '100000',
  THROTTLE_SIGNUP_LIMIT: '100000',
  THROTTLE_IMAGES_LIMIT: '100000',
  THROTTLE_IMAGES_ADDRESS_LIMIT: '100000',
};

/**
 * Contract-driven fuzzing (docs/reliability.md): requests generated from the backend's own
 * OpenAPI document, valid-ish and hostile, as a super-admin and as an organization manager. Every
 * answer must be a documented status (never a 5xx) whose body validates against the contract,
 * and a refused request must leave every table (and the image storage) as it was.
 */
describe('contract fuzzing of the backend', () => {
  let t: TestApp;
  let imageDir: string;
  let contract: OpenApiDocument;
  let admin: SignedIn;
  let manager: SignedIn;
  let reseller: Organization;
  let region: Organization;
  const known = {
    providerId: '',
    activityIds: [] as string[],
    tagIds: [] as string[],
    closureId: '',
    tourId: '',
    stepIds: [] as string[],
    batchId: '',
    codeIds: [] as string[],
    fullCodes: [] as string[],
    tripId: '',
    imageId: '',
  };
  let sampleFiles: { content: Uint8Array; filename: string; contentType: string }[];

  beforeAll(async () => {
    imageDir = await mkdtemp(join(tmpdir(), 'rt-fuzz-images-'));
    t = await createTestApp({ env: { ...UNTHROTTLED, IMAGE_DIR: imageDir } });
    contract = (await t.http.get('/api/contract').expect(200)).body as OpenApiDocument;

    admin = await t.signedInSuperAdmin();
    manager = await t.signedInUser();
    reseller = await t.makeOrganization({ type: 'reseller' });
    region = await t.makeOrganization({ type: 'region' });
    await t.addMember(reseller, manager.user, 'manager');

    const f = tripFixtures(t, admin);
    const asAdmin = f.asAdmin;
    const activityA = await f.activity({ name: 'Plan A', capacity: 12 });
    const activityB = await f.activity({ name: 'Plan B', unlimited: true });
    known.activityIds = [activityA, activityB];
    known.providerId = (await asAdmin.get(`/tour/activity/${activityA}`).expect(200)).body.provider_id;
    known.tagIds = [
      (
        await asAdmin
          .post('/tags')
          .send({ type: 'theme', names: { fr: 'Lacs', en: 'Lakes' }, icon: 'lake' })
          .expect(201)
      ).body.id,
    ];
    known.closureId = (
      await asAdmin
        .post(`/tour/activity/${activityA}/closures`)
        .send({ starts_on: '2027-01-01', ends_on: '2027-01-07', reason: 'Winter' })
        .expect(201)
    ).body.id;
    known.tourId = (
      await asAdmin
        .post('/tour')
        .send({
          name: 'Fuzz loop',
          color: '#1A2B3C',
          partner_organization_id: reseller.id,
          region_organization_id: region.id,
        })
        .expect(201)
    ).body.id;
    for (const step of [
      { day_number: 1, time: '09:30', activity_ids: [activityA, activityB] },
      { day_number: 2, activity_ids: [activityB] },
    ]) {
      known.stepIds.push((await asAdmin.post(`/tour/${known.tourId}/steps`).send(step).expect(201)).body.id);
    }
    await asAdmin.put(`/tour/${known.tourId}`).send({ status: 'active' }).expect(200);

    const batch = await asAdmin
      .post('/activation-codes/batches')
      .send({ organisation_id: reseller.id, count: 6, internal_note: 'fuzz' })
      .expect(201);
    known.batchId = batch.body.id;
    const codes = (
      await asAdmin.get(`/activation-codes?organisation_id=${reseller.id}&per_page=100`).expect(200)
    ).body.data as { id: string; full_code: string }[];
    known.codeIds = codes.map((code) => code.id);
    known.fullCodes = codes.map((code) => code.full_code);
    await f.claim(manager, codes[0].full_code);
    known.tripId = (
      await f
        .startTrip(manager, {
          activation_code_id: codes[0].id,
          tour_id: known.tourId,
          starts_on: '2027-03-01',
          travellers: 2,
        })
        .expect(201)
    ).body.id;
    // A code the manager holds but has not used yet, for trips the fuzzer starts.
    await f.claim(manager, codes[1].full_code);

    const png = await noise(16, 16).png().toBuffer();
    const jpeg = await noise(24, 16).jpeg().toBuffer();
    sampleFiles = [
      { content: png, filename: 'photo.png', contentType: 'image/png' },
      { content: jpeg, filename: 'photo.jpg', contentType: 'image/jpeg' },
    ];
    known.imageId = (
      await admin.agent
        .post('/api/images')
        .set('X-Viewing-As', 'super-admin')
        .attach('image', png, 'a.png')
        .expect(201)
    ).body.id;
  });
  afterAll(async () => {
    await t.close();
    await rm(imageDir, { recursive: true, force: true });
  });

  it('serves the committed contract snapshot, the document the fuzzing reads', () => {
    expect(contract).toEqual(JSON.parse(readFileSync(CONTRACT_SNAPSHOT, 'utf8')));
  });

  const superAdminOnly = (operation: FuzzOperation) =>
    (
      contract.paths[operation.path][operation.method.toLowerCase()] as {
        parameters?: { name: string; description?: string }[];
      }
    ).parameters?.some((p) => p.name === 'X-Viewing-As' && p.description?.includes('Only `super-admin`')) ??
    false;

  /** Rows the test made, offered for the fields that name them (so requests reach the rules). */
  const knownValues = ({ operation, location, name }: FieldContext) => {
    if (location === 'path') {
      const path = operation.path;
      if (name === 'activityId') return known.activityIds;
      if (name === 'closureId') return [known.closureId];
      if (name === 'stepId') return known.stepIds;
      if (path.startsWith('/organizations/{id}/capacity')) return [region.id];
      if (path.startsWith('/organizations/')) return [reseller.id, region.id];
      if (path.startsWith('/activation-codes/batches/')) return [known.batchId];
      if (path.startsWith('/activation-codes/')) return known.codeIds;
      if (path.startsWith('/tags/')) return known.tagIds;
      if (path.startsWith('/tour/provider/')) return [known.providerId];
      if (path.startsWith('/tour/activity/')) return known.activityIds;
      if (path.startsWith('/tour/')) return [known.tourId];
      if (path.startsWith('/trips/')) return [known.tripId];
      return undefined;
    }
    switch (name) {
      case 'X-Viewing-As':
        // The super-admin's routes (their hat parameter says so) get that hat most often, so
        // requests reach their rules; the others get every hat the manager holds as well.
        return superAdminOnly(operation)
          ? ['super-admin', 'super-admin', 'super-admin', 'super-admin', 'traveller']
          : ['super-admin', 'traveller', `organization:${reseller.id}`];
      // The other kind of organization too, now and then: the rules on the type must hold.
      case 'partner_organization_id':
        return [reseller.id, reseller.id, region.id];
      case 'region_organization_id':
        return [region.id, region.id, reseller.id];
      case 'organisation_id':
      case 'organisation_id[]':
        return [reseller.id, reseller.id, region.id];
      case 'provider_id':
        return [known.providerId];
      case 'activity_ids':
        return known.activityIds;
      case 'tags':
      case 'tag_ids[]':
        return known.tagIds;
      case 'step_ids':
        return known.stepIds;
      case 'ids':
        return known.codeIds;
      case 'activation_code_id':
        return known.codeIds.slice(0, 2);
      case 'tour_id':
        return [known.tourId];
      case 'image_id':
      case 'profile_picture_id':
        return [known.imageId];
      case 'full_code':
        return known.fullCodes;
      case 'email':
        return operation.path === '/user'
          ? HOSTILE_ADDRESSES
          : [admin.user.email, manager.user.email, ...HOSTILE_ADDRESSES];
      case 'contact_email':
      case 'manager_email':
        return [manager.user.email, ...HOSTILE_ADDRESSES];
      case 'password':
        return [TEST_PASSWORD];
      default:
        return undefined;
    }
  };

  /**
   * Who sends each request: the super-admin, or the manager when the request's hat is one the
   * manager holds (now and then the other one, for `hat_not_held`). `POST /logout` revokes the
   * token it is sent with, so it gets a fresh one each time.
   */
  const credentials = async (operation: FuzzOperation, request: FuzzRequest) => {
    if (operation.key === 'POST /logout') {
      const fresh = await t.signIn(request.identity % 2 ? admin.user : manager.user);
      return { Authorization: `Bearer ${fresh.token}` };
    }
    const hat = request.headers['X-Viewing-As'];
    const managerHat = hat === 'traveller' || hat === `organization:${reseller.id}` || hat === undefined;
    const asManager = managerHat ? request.identity % 2 === 0 : request.identity % 10 === 0;
    return { Authorization: `Bearer ${(asManager ? manager : admin).token}` };
  };

  /** Uploads that were refused must not leave a file behind. */
  const storedFiles = async (): Promise<StateSnapshot> => {
    const files = await readdir(imageDir, { recursive: true, withFileTypes: true });
    return { 'image storage': `${files.filter((entry) => entry.isFile()).length} files` };
  };

  /** What the partial-write check leaves out, and why (written into the summary too). */
  const SNAPSHOT_OPTIONS = {
    excludeTables: {
      throttle_counters:
        'rate limits count refused calls by design (failed logins, every signup, reset, claim)',
    },
    ignoreColumns: {
      personal_access_tokens: {
        columns: ['last_used_at'],
        reason: 'authentication records the token’s use before the request is judged',
      },
    },
  };
  const tableSnapshots = () => databaseSnapshotter((sql) => t.dataSource.query(sql), SNAPSHOT_OPTIONS);

  it('sees a write in its snapshot of the tables, and a file in the image storage', async () => {
    const database = await tableSnapshots();
    const snapshot = combineSnapshots(database.snapshot, storedFiles);
    const before = await snapshot();
    await t.makeUser();
    await admin.agent
      .post('/api/images')
      .set('X-Viewing-As', 'super-admin')
      .attach('image', sampleFiles[0].content as Buffer, 'b.png')
      .expect(201);
    expect(snapshotDifferences(before, await snapshot())).toEqual([
      expect.stringMatching(/^image storage: \d+ files → \d+ files$/),
      expect.stringMatching(/^table images: /),
      expect.stringMatching(/^table users: /),
    ]);
  });

  it('answers every generated request as documented, and stores nothing when it refuses', async () => {
    const database = await tableSnapshots();
    const report: FuzzReport = await runContractFuzz(
      {
        service: 'backend',
        document: contract,
        server: t.app.getHttpServer() as Server,
        credentials,
        snapshot: combineSnapshots(database.snapshot, storedFiles),
        beforeOperation: async () => {
          // A fuzzed status change may have suspended the manager's organization: approve it again
          // (a no-op when it is approved), so the manager's hat keeps reaching the handlers.
          await t.http
            .patch(`/api/organizations/${reseller.id}/status`)
            .set('Authorization', `Bearer ${admin.token}`)
            .set('X-Viewing-As', 'super-admin')
            .send({ status: 'approved' });
        },
      },
      {
        seed: SEED,
        numRuns: RUNS_PER_OPERATION,
        // Deleting the tour last keeps its steps for the step operations before it.
        operations: (all) => {
          const ordered = readsFirst(all);
          const last = ordered.filter((operation) => operation.key === 'DELETE /tour/{id}');
          return [...ordered.filter((operation) => !last.includes(operation)), ...last];
        },
        arbitraries: { knownValues },
        requests: {
          sampleFiles,
          bodyLimitBytes: t.app.get<BackendConfig>(BACKEND_CONFIG).BODY_LIMIT_BYTES,
          fileLimitBytes: MAX_IMAGE_BYTES,
        },
      },
    );
    writeFuzzReport(report, RESULTS_FILE, {
      database: process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite (embedded)',
      tables: database.tables,
      leftOut: SNAPSHOT_OPTIONS,
    });
    console.log(formatSummary(report));
    if (failureCount(report) > 0) throw new Error(`${formatSummary(report)}\n\n${formatFailures(report)}`);
    expect(report.requests).toBeGreaterThan(0);
  }, 900_000);
});
