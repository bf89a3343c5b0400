import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { photoJpeg } from './image';

/** A user of the run who can sign in. */
export interface LoadUser {
  email: string;
  password: string;
  /** `X-Viewing-As` of their requests. */
  hat: string;
}

/** What the preparation made, through the services' public APIs, for the mix to use. */
export interface LoadFixture {
  admin: LoadUser;
  managers: (LoadUser & { organizationId: string })[];
  /** Bearer tokens of the super-admin (one per device, shared by the connections in turn). */
  adminTokens: string[];
  managerTokens: { token: string; hat: string }[];
  organizations: number;
  /** The organization holding most codes, and every organization with codes. */
  codeOrganizationId: string;
  codeOrganizationIds: string[];
  codes: number;
  /** Parts of real codes, for `search=`. */
  codeFragments: string[];
  tours: { id: string; stepIds: string[] }[];
  /** Activities the steps' plans are drawn from. */
  activityIds: string[];
  /** Signed image URLs (`/img/...`), originals and variants. */
  imagePaths: string[];
  offers: number;
}

/**
 * The backend's variables that the preparation relies on: invitations written to files in
 * `mailDir` (never sent to an SMTP_URL of the environment), local images signed with a fresh
 * pair, and the seeded super-admin.
 */
export function preparedBackendEnv(
  mailDir: string,
  imageDir: string,
  admin: LoadUser,
): Record<string, string> {
  return {
    SMTP_URL: '',
    MAIL_WORKER_ENABLED: 'true',
    MAIL_DIR: mailDir,
    MAIL_POLL_INTERVAL_MS: '200',
    IMAGE_STORAGE: 'local',
    IMAGE_DIR: imageDir,
    IMGPROXY_KEY: randomBytes(32).toString('hex'),
    IMGPROXY_SALT: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  };
}

export interface PrepareContext {
  /** The repository root. */
  root: string;
  backend: string;
  search: string;
  mailDir: string;
  admin: LoadUser;
  codes: number;
  offers: number;
  connections: number;
  log: (line: string) => void;
  aborted: () => boolean;
}

interface CallOptions {
  token?: string;
  hat?: string;
  body?: unknown;
  form?: FormData;
  expect?: number;
}

class Api {
  constructor(private readonly base: string) {}

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.hat) headers['X-Viewing-As'] = options.hat;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    const expected = options.expect ?? (method === 'POST' ? 201 : 200);
    if (res.status !== expected) {
      throw new Error(
        `preparation: ${method} ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 500)}`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

interface Page<T> {
  data: T[];
  meta: { total: number };
}

const TOUR_NAMES = [
  'Valais glaciers',
  'Lake Geneva vineyards',
  'Jura crests',
  'Ticino lakes',
  'Engadin passes',
];
const COLORS = ['#1A2B3C', '#C0392B', '#27AE60', '#2980B9', '#8E44AD', '#F39C12'];

/** The set-password token of the invitation mailed to `email` (the local transport's `.txt` copy). */
async function invitationToken(mailDir: string, email: string, aborted: () => boolean): Promise<string> {
  const safe = email.replace(/[^A-Za-z0-9@._-]/g, '_');
  for (let attempt = 0; attempt < 300 && !aborted(); attempt++) {
    const files = await readdir(mailDir).catch(() => [] as string[]);
    const file = files.find((name) => name.includes('-invitation-') && name.endsWith(`${safe}.txt`));
    if (file) {
      const text = await readFile(join(mailDir, file), 'utf8');
      const token = /[?&]token=([A-Za-z0-9]+)/.exec(text)?.[1];
      if (token) return token;
    }
    await sleep(200);
  }
  throw new Error(`preparation: no invitation for ${email} in ${mailDir} after 60 s`);
}

/**
 * Prepares the data of the run through the public APIs: super-admin sessions; organizations
 * (some pending or suspended) whose managers are invited by email and set their password with
 * the invitation link; activation codes in batches, a few cancelled; providers, activities with
 * uploaded images, tours with dated steps; the image variants fetched once (made and stored,
 * as after any first view); the search index built at start-up from the generated catalogue.
 */
export async function prepare(ctx: PrepareContext): Promise<LoadFixture> {
  const api = new Api(`${ctx.backend}/api`);
  const step = (line: string) => {
    if (ctx.aborted()) throw new Error('interrupted');
    ctx.log(line);
  };
  const login = async (user: LoadUser, device: string) =>
    (
      await api.call<{ token: string }>('POST', '/login', {
        body: { email: user.email, password: user.password, device_name: device },
        expect: 200,
      })
    ).token;

  step('signing in the super-admin');
  const adminTokens: string[] = [];
  for (let i = 0; i < Math.min(4, ctx.connections); i++)
    adminTokens.push(await login(ctx.admin, `load-admin-${i + 1}`));
  const admin = { token: adminTokens[0], hat: 'super-admin' };

  step('creating organizations and inviting their managers');
  const managers: LoadFixture['managers'] = [];
  const organizationIds: { id: string; type: string }[] = [];
  const ORGANIZATIONS = 24;
  for (let i = 0; i < ORGANIZATIONS; i++) {
    const type = i % 3 === 1 ? 'region' : 'reseller';
    const email = `manager-${i + 1}@load.example.com`;
    const created = await api.call<{ id: string }>('POST', '/organizations', {
      ...admin,
      body: {
        name: `Load ${type} ${String(i + 1).padStart(2, '0')}`,
        type,
        description: `Organization ${i + 1} of the load run.`,
        manager_email: email,
        manager_first_name: 'Manager',
        manager_last_name: `Number ${i + 1}`,
        preferred_language: ['fr-ch', 'ge-ch', 'en-gb'][i % 3],
        ...(i % 4 === 0 ? { commission: 12.5, commission_type: 'percent' } : {}),
      },
    });
    organizationIds.push({ id: created.id, type });
    // Most approved; the last ones stay pending or are suspended, as in a real list.
    const status = i >= ORGANIZATIONS - 2 ? undefined : i === ORGANIZATIONS - 3 ? 'suspended' : 'approved';
    if (status)
      await api.call('PATCH', `/organizations/${created.id}/status`, { ...admin, body: { status } });
    if (i < 2) {
      managers.push({
        email,
        password: `load manager passphrase ${i + 1}`,
        hat: `organization:${created.id}`,
        organizationId: created.id,
      });
    }
  }
  const reseller = organizationIds[0];
  const region = organizationIds[1];

  step('managers set their password from the invitation link');
  const managerTokens: LoadFixture['managerTokens'] = [];
  for (const manager of managers) {
    const token = await invitationToken(ctx.mailDir, manager.email, ctx.aborted);
    await api.call('POST', '/reset-password', {
      body: { email: manager.email, token, password: manager.password },
      expect: 204,
    });
    managerTokens.push({ token: await login(manager, 'load-manager'), hat: manager.hat });
  }

  step(`generating ${ctx.codes} activation codes`);
  const mainCount = Math.max(1, Math.round(ctx.codes * 0.9));
  const firstBatch = Math.max(1, Math.round(mainCount * 0.6));
  const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
  await api.call('POST', '/activation-codes/batches', {
    ...admin,
    body: { organisation_id: reseller.id, count: firstBatch, internal_note: 'load run, first batch' },
  });
  if (mainCount > firstBatch) {
    await api.call('POST', '/activation-codes/batches', {
      ...admin,
      body: { organisation_id: reseller.id, count: mainCount - firstBatch, expires_at: inAYear },
    });
  }
  if (ctx.codes > mainCount) {
    await api.call('POST', '/activation-codes/batches', {
      ...admin,
      body: { organisation_id: region.id, count: ctx.codes - mainCount, expires_at: inAYear },
    });
  }
  const firstPage = await api.call<Page<{ id: string; full_code: string }>>(
    'GET',
    `/activation-codes?organisation_id=${reseller.id}&per_page=100`,
    admin,
  );
  const cancelled = firstPage.data.slice(0, 40).map((code) => code.id);
  if (cancelled.length > 0) {
    await api.call('PUT', '/activation-codes/status', {
      ...admin,
      body: { ids: cancelled, status: 'cancelled' },
    });
  }
  // Fragments as people type them: a group, two groups across the dash, a few letters.
  const codeFragments = firstPage.data.flatMap(({ full_code: code }) => [
    code.slice(5, 9),
    code.slice(2, 7).toLowerCase(),
    code.slice(10, 13),
  ]);

  step('uploading images');
  const images: { id: string; url: string; variants: Record<string, string> }[] = [];
  for (const [seed, [width, height]] of [
    [1, [3000, 2000]],
    [2, [2400, 1600]],
  ] as const) {
    const form = new FormData();
    const jpeg = await photoJpeg(ctx.root, width, height, seed);
    form.append('image', new Blob([jpeg], { type: 'image/jpeg' }), `photo-${seed}.jpg`);
    images.push(await api.call('POST', '/images', { ...admin, form }));
  }
  const imagePaths = [...new Set(images.flatMap((image) => [image.url, ...Object.values(image.variants)]))];
  for (const path of imagePaths) {
    const res = await fetch(`${ctx.backend}${path}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`preparation: GET ${path} answered ${res.status}`);
  }

  step('creating providers, activities, tours and steps');
  const activityIds: string[] = [];
  for (let p = 0; p < 4; p++) {
    const provider = await api.call<{ id: string }>('POST', '/tour/provider', {
      ...admin,
      body: {
        name: `Load provider ${p + 1}`,
        city: ['Sion', 'Montreux', 'Neuchâtel', 'Lugano'][p],
        country: 'CH',
        latitude: 46.2 + p * 0.1,
        longitude: 7.3 + p * 0.2,
      },
    });
    for (let a = 0; a < 3; a++) {
      const activity = await api.call<{ id: string }>('POST', '/tour/activity', {
        ...admin,
        body: {
          provider_id: provider.id,
          name: `Load activity ${p + 1}.${a + 1}`,
          image_id: images[(p + a) % images.length].id,
          ...(a === 2 ? { unlimited: true } : { capacity: 10 + 5 * a }),
        },
      });
      activityIds.push(activity.id);
    }
  }
  const tours: LoadFixture['tours'] = [];
  for (const [t, name] of TOUR_NAMES.entries()) {
    const tour = await api.call<{ id: string }>('POST', '/tour', {
      ...admin,
      body: {
        name,
        color: COLORS[t % COLORS.length],
        partner_organization_id: reseller.id,
        region_organization_id: region.id,
      },
    });
    const stepIds: string[] = [];
    for (let s = 0; s < 6; s++) {
      const created = await api.call<{ id: string }>('POST', `/tour/${tour.id}/steps`, {
        ...admin,
        body: {
          day_number: 1 + Math.floor(s / 2),
          time: s % 2 === 0 ? '09:00' : '14:30',
          activity_ids: [0, 1].map((k) => activityIds[(t * 3 + s + k * 5) % activityIds.length]),
        },
      });
      stepIds.push(created.id);
    }
    if (t % 2 === 0) await api.call('PUT', `/tour/${tour.id}`, { ...admin, body: { status: 'active' } });
    tours.push({ id: tour.id, stepIds });
  }

  step('checking the search index');
  const listing = await fetch(`${ctx.search}/travels?size=1&infoDensity=min`);
  const { totalRecords } = (await listing.json()) as { totalRecords: number };
  if (listing.status !== 200 || totalRecords !== ctx.offers) {
    throw new Error(`preparation: the search index holds ${totalRecords} offers, expected ${ctx.offers}`);
  }

  return {
    admin: ctx.admin,
    managers,
    adminTokens,
    managerTokens,
    organizations: ORGANIZATIONS,
    codeOrganizationId: reseller.id,
    codeOrganizationIds: [reseller.id, region.id],
    codes: ctx.codes,
    codeFragments,
    tours,
    activityIds,
    imagePaths,
    offers: totalRecords,
  };
}
