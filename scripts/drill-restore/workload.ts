// What the drill writes, through the services' public APIs only: before the base backup, between
// it and the restore point, and after the restore point (a deliberate deletion and more writes).
import { setTimeout as sleep } from 'node:timers/promises';

interface CallOptions {
  body?: unknown;
  expect?: number;
}

/** The backend's API as the super-admin. */
export class BackendApi {
  private token = '';

  constructor(private readonly base: string) {}

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) {
      headers.Authorization = `Bearer ${this.token}`;
      headers['X-Viewing-As'] = 'super-admin';
    }
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.base}/api${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    const expected = options.expect ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
    if (res.status !== expected) {
      throw new Error(
        `backend: ${method} ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 400)}`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async signIn(email: string, password: string): Promise<void> {
    this.token = '';
    const { token } = await this.call<{ token: string }>('POST', '/login', {
      body: { email, password, device_name: 'restore-drill' },
      expect: 200,
    });
    this.token = token;
  }
}

/** Ids the drill made, to look for after the restore. */
export interface Written {
  tagIds: string[];
  organizationIds: string[];
  tourIds: string[];
  activityIds: string[];
}

const TAG_TYPES = ['theme', 'thing_to_bring', 'restriction', 'suitability'];

async function tag(api: BackendApi, label: string, i: number): Promise<string> {
  const created = await api.call<{ id: string }>('POST', '/tags', {
    body: {
      type: TAG_TYPES[i % TAG_TYPES.length],
      names: { fr: `Étiquette ${label}`, en: `Tag ${label}`, de: null },
      icon: `drill-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    },
  });
  return created.id;
}

async function organization(api: BackendApi, label: string, type: 'reseller' | 'region', approve: boolean) {
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const created = await api.call<{ id: string }>('POST', '/organizations', {
    body: {
      name: `Drill ${label}`,
      type,
      description: `Written by the restore drill (${label}).`,
      manager_email: `manager-${slug}@drill.example.com`,
      manager_first_name: 'Drill',
      manager_last_name: label,
      preferred_language: 'en-gb',
    },
  });
  if (approve) {
    await api.call('PATCH', `/organizations/${created.id}/status`, { body: { status: 'approved' } });
  }
  return created.id;
}

async function providerWithActivities(
  api: BackendApi,
  label: string,
  tagIds: string[],
  activities: number,
): Promise<string[]> {
  const provider = await api.call<{ id: string }>('POST', '/tour/provider', {
    body: { name: `Drill provider ${label}`, city: 'Sion', country: 'CH', latitude: 46.23, longitude: 7.36 },
  });
  const ids: string[] = [];
  for (let a = 0; a < activities; a++) {
    const activity = await api.call<{ id: string }>('POST', '/tour/activity', {
      body: {
        provider_id: provider.id,
        name: `Drill activity ${label}.${a + 1}`,
        tags: tagIds.slice(a % tagIds.length, (a % tagIds.length) + 2),
        ...(a % 2 === 0 ? { capacity: 12 + a } : { unlimited: true }),
      },
    });
    ids.push(activity.id);
  }
  return ids;
}

/** Before the base backup: tags, organizations, providers with tagged activities. */
export async function writeBeforeBackup(api: BackendApi): Promise<Written> {
  const tagIds: string[] = [];
  for (let i = 0; i < 4; i++) tagIds.push(await tag(api, `before backup ${i + 1}`, i));
  const organizationIds = [
    await organization(api, 'Reseller A', 'reseller', true),
    await organization(api, 'Region A', 'region', true),
    await organization(api, 'Pending A', 'reseller', false),
  ];
  const activityIds = [
    ...(await providerWithActivities(api, 'A', tagIds, 3)),
    ...(await providerWithActivities(api, 'B', tagIds, 3)),
  ];
  return { tagIds, organizationIds, tourIds: [], activityIds };
}

/** After the base backup, before the restore point: what only the archived WAL holds. */
export async function writeBeforePoint(api: BackendApi, written: Written): Promise<Written> {
  const tagIds = [...written.tagIds];
  for (let i = 0; i < 2; i++) tagIds.push(await tag(api, `after backup ${i + 1}`, i));
  const organizationIds = [
    ...written.organizationIds,
    await organization(api, 'Reseller B', 'reseller', true),
    await organization(api, 'Region B', 'region', true),
  ];
  const activityIds = [
    ...written.activityIds,
    ...(await providerWithActivities(api, 'C', tagIds.slice(4), 2)),
  ];
  const [reseller, region] = organizationIds;
  const tourIds: string[] = [];
  for (const [t, name] of ['Valais glaciers', 'Jura crests'].entries()) {
    const tour = await api.call<{ id: string }>('POST', '/tour', {
      body: {
        name,
        color: ['#1A2B3C', '#C0392B'][t],
        partner_organization_id: reseller,
        region_organization_id: region,
      },
    });
    for (let s = 0; s < 3; s++) {
      await api.call('POST', `/tour/${tour.id}/steps`, {
        body: {
          day_number: 1 + s,
          time: '09:00',
          activity_ids: [
            activityIds[(t + s) % activityIds.length],
            activityIds[(t + s + 3) % activityIds.length],
          ],
        },
      });
    }
    tourIds.push(tour.id);
  }
  await api.call('POST', '/activation-codes/batches', {
    body: { organisation_id: reseller, count: 150, internal_note: 'restore drill, before the point' },
  });
  return { tagIds, organizationIds, tourIds, activityIds };
}

/**
 * After the restore point: the deliberate deletion (a tag carried by activities, a tour with its
 * steps), codes cancelled, an organization suspended, and new rows.
 */
export async function writeAfterPoint(
  api: BackendApi,
  written: Written,
): Promise<{ deletedTagId: string; deletedTourId: string; newTagId: string; newOrganizationId: string }> {
  const deletedTagId = written.tagIds[0];
  const deletedTourId = written.tourIds[0];
  await api.call('DELETE', `/tags/${deletedTagId}`);
  await api.call('DELETE', `/tour/${deletedTourId}`);
  const codes = await api.call<{ data: { id: string }[] }>(
    'GET',
    `/activation-codes?organisation_id=${written.organizationIds[0]}&per_page=50`,
  );
  await api.call('PUT', '/activation-codes/status', {
    body: { ids: codes.data.map((code) => code.id), status: 'cancelled' },
  });
  await api.call('PATCH', `/organizations/${written.organizationIds[1]}/status`, {
    body: { status: 'suspended' },
  });
  const newOrganizationId = await organization(api, 'After the point', 'reseller', true);
  const newTagId = await tag(api, 'after the point', 1);
  return { deletedTagId, deletedTourId, newTagId, newOrganizationId };
}

/** The search service's offer count (`GET /travels`). */
export async function searchTotal(base: string): Promise<number> {
  const res = await fetch(`${base}/travels?size=1&infoDensity=min`, { signal: AbortSignal.timeout(30_000) });
  const body = (await res.json()) as { totalRecords: number };
  if (res.status !== 200) throw new Error(`search: GET /travels answered ${res.status}`);
  return body.totalRecords;
}

/** Waits until the search service lists `expected` offers. */
export async function waitSearchTotal(base: string, expected: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let total = -1;
  while (Date.now() < until) {
    total = await searchTotal(base).catch(() => -1);
    if (total === expected) return;
    await sleep(250);
  }
  throw new Error(`search: ${total} offers listed, expected ${expected}, after ${timeoutMs / 1000} s`);
}
