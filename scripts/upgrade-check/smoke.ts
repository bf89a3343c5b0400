// The upgrade check's smoke flows: HTTP only, against a backend and a search service given by their
// base URLs, so that the same flows run against the previous version and the new one. Each request
// checks its status (and what a flow needs from the answer); the first that does not hold stops the
// flows with a SmokeFailure naming it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addMarkedOffer, markerOf, readCatalogue } from './catalogue';

export interface SmokeOptions {
  /** `http://127.0.0.1:3000` (the routes are under `/api`). */
  backend: string;
  search: string;
  adminEmail: string;
  adminPassword: string;
  /** Where the backends write emails (MAIL_DIR): the invitation's link. */
  mailDir: string;
  /** The catalogue file both search services index (CATALOGUE_SOURCE). */
  catalogue: string;
  /** Names what this run writes (letters, digits, dashes), so that runs on one database never collide. */
  label: string;
  /** `full`: reads and writes of every feature, a reindex; `reads`: sign-in, the listings and searches only. */
  mode: 'full' | 'reads';
  log: (line: string) => void;
}

/** Starts the last line of smoke-cli's output, followed by the SmokeResult as JSON. */
export const RESULT_PREFIX = 'UPGRADE-CHECK-RESULT ';

/** The request that did not hold: what the check reports. */
export class SmokeFailure extends Error {
  constructor(
    readonly flow: string,
    readonly request: string,
    readonly problem: string,
  ) {
    super(`${flow}: ${request}: ${problem}`);
  }
}

export interface SmokeResult {
  ok: boolean;
  requests: number;
  failure?: { flow: string; request: string; problem: string };
  /** Anything else that went wrong (a bug of the flows themselves, a crash). */
  error?: string;
}

interface CallOptions {
  token?: string;
  hat?: string;
  body?: unknown;
  expect?: number;
  accept?: string;
}

type Json = Record<string, unknown>;
interface Page<T> {
  data: T[];
  meta?: { total?: number };
}
interface Listing {
  totalRecords: number;
  records: { id: string; tsvector_score?: number }[];
}

class Http {
  requests = 0;
  flow = '';

  constructor(
    private readonly base: string,
    private readonly log: (line: string) => void,
  ) {}

  async call<T = Json>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const request = `${method} ${path}`;
    const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.hat) headers['X-Viewing-As'] = options.hat;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let status: number;
    let text: string;
    this.requests++;
    try {
      const res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(60_000),
      });
      status = res.status;
      text = await res.text();
    } catch (error) {
      throw new SmokeFailure(this.flow, request, `no answer (${String(error)})`);
    }
    const expected = options.expect ?? (method === 'POST' ? 201 : 200);
    if (status !== expected) {
      throw new SmokeFailure(
        this.flow,
        request,
        `answered ${status} (expected ${expected}): ${text.slice(0, 400)}`,
      );
    }
    this.log(`  ${status} ${request}`);
    if (!text || !(options.accept ?? 'application/json').includes('json')) return text as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new SmokeFailure(this.flow, request, `answered ${status} with a body that is not JSON`);
    }
  }

  /** A check on an answer that did arrive. */
  expect(condition: unknown, request: string, problem: string): void {
    if (!condition) throw new SmokeFailure(this.flow, request, problem);
  }
}

/** Today + `days` in Europe/Zurich, `YYYY-MM-DD`. */
function zurichDate(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** The set-password token of the invitation mailed to `email` (the local transport's `.txt` copy). */
async function invitationToken(mailDir: string, email: string): Promise<string | undefined> {
  const safe = email.replace(/[^A-Za-z0-9@._-]/g, '_');
  for (let attempt = 0; attempt < 150; attempt++) {
    const files = await readdir(mailDir).catch(() => [] as string[]);
    const file = files.find((name) => name.includes('-invitation-') && name.endsWith(`${safe}.txt`));
    if (file) {
      const token = /[?&]token=([A-Za-z0-9]+)/.exec(await readFile(join(mailDir, file), 'utf8'))?.[1];
      if (token) return token;
    }
    await sleep(200);
  }
  return undefined;
}

async function backendFlows(options: SmokeOptions, api: Http): Promise<void> {
  const { label } = options;
  const reads = options.mode === 'reads';

  api.flow = 'sign-in';
  const { token } = await api.call<{ token: string }>('POST', '/login', {
    body: {
      email: options.adminEmail,
      password: options.adminPassword,
      device_name: `upgrade-check ${label}`,
    },
    expect: 200,
  });
  const admin = { token, hat: 'super-admin' };
  await api.call('GET', '/user', admin);

  if (reads) {
    // What the other version wrote, read by this one: every listing, and every tour of the first page.
    api.flow = 'reads';
    await api.call('GET', '/organizations?per_page=100', admin);
    await api.call('GET', '/organizations/default', admin);
    await api.call('GET', '/activation-codes/batches?per_page=100', admin);
    await api.call('GET', '/activation-codes?per_page=100', admin);
    await api.call('GET', '/tags?per_page=100', admin);
    await api.call('GET', '/tour/providers?per_page=100', admin);
    const activities = await api.call<Page<{ id: string }>>('GET', '/tour/activities?per_page=100', admin);
    for (const activity of activities.data.slice(0, 10)) {
      await api.call('GET', `/tour/activity/${activity.id}`, admin);
      await api.call('GET', `/tour/activity/${activity.id}/closures`, admin);
    }
    const tours = await api.call<Page<{ id: string }>>('GET', '/tour?per_page=100', admin);
    for (const tour of tours.data.slice(0, 20)) await api.call('GET', `/tour/${tour.id}`, admin);
    await api.call('GET', '/trips', { token, hat: 'traveller' });
    await api.call('POST', '/logout', { ...admin, expect: 204 });
    return;
  }

  api.flow = 'organizations';
  const managerEmail = `manager-${label}@upgrade-check.example.com`;
  const reseller = await api.call<{ id: string; status: string }>('POST', '/organizations', {
    ...admin,
    body: {
      name: `Upgrade check reseller ${label}`,
      type: 'reseller',
      description: 'Written by the upgrade check.',
      manager_email: managerEmail,
      manager_first_name: 'Upgrade',
      manager_last_name: 'Check',
      preferred_language: 'en-gb',
      commission: 10,
      commission_type: 'percent',
    },
  });
  await api.call('PATCH', `/organizations/${reseller.id}/status`, { ...admin, body: { status: 'approved' } });
  await api.call('PATCH', `/organizations/${reseller.id}`, {
    ...admin,
    body: { description: `Edited by the upgrade check ${label}.` },
  });
  const region = await api.call<{ id: string }>('POST', '/organizations', {
    ...admin,
    body: {
      name: `Upgrade check region ${label}`,
      type: 'region',
      manager_email: `region-${label}@upgrade-check.example.com`,
      manager_first_name: 'Region',
      manager_last_name: 'Manager',
      preferred_language: 'fr-ch',
    },
  });
  await api.call('PATCH', `/organizations/${region.id}/status`, { ...admin, body: { status: 'approved' } });
  const organizations = await api.call<Page<{ id: string }>>('GET', '/organizations?per_page=100', admin);
  api.expect(
    organizations.data.some((organization) => organization.id === reseller.id),
    'GET /organizations?per_page=100',
    `the new organization ${reseller.id} is not listed`,
  );
  await api.call('GET', '/organizations?type=region&status=approved', admin);
  await api.call('GET', '/organizations/default', admin);

  api.flow = 'organizations: the invited manager';
  const invitation = await invitationToken(options.mailDir, managerEmail);
  api.expect(
    invitation,
    `the invitation to ${managerEmail}`,
    `no invitation in ${options.mailDir} after 30 s`,
  );
  const managerPassword = `upgrade check manager ${label}`;
  await api.call('POST', '/reset-password', {
    body: { email: managerEmail, token: invitation, password: managerPassword },
    expect: 204,
  });
  const manager = await api.call<{ token: string }>('POST', '/login', {
    body: { email: managerEmail, password: managerPassword, device_name: 'upgrade-check manager' },
    expect: 200,
  });
  const asManager = { token: manager.token, hat: `organization:${reseller.id}` };
  await api.call('GET', '/organization', asManager);
  await api.call('GET', '/user', asManager);

  api.flow = 'activation codes';
  const batch = await api.call<{ id: string }>('POST', '/activation-codes/batches', {
    ...admin,
    body: { organisation_id: reseller.id, count: 6, internal_note: `upgrade check ${label}` },
  });
  await api.call('GET', `/activation-codes/batches?organisation_id=${reseller.id}`, admin);
  await api.call('PATCH', `/activation-codes/batches/${batch.id}`, {
    ...admin,
    body: { internal_note: `upgrade check ${label}, edited` },
  });
  const codes = await api.call<Page<{ id: string; full_code: string }>>(
    'GET',
    `/activation-codes?organisation_id=${reseller.id}&per_page=100`,
    admin,
  );
  api.expect(
    codes.data.length === 6,
    'GET /activation-codes',
    `${codes.data.length} codes listed, expected 6`,
  );
  const [claimed, cancelled, ...others] = codes.data;
  await api.call(
    'GET',
    `/activation-codes?search=${encodeURIComponent(others[0].full_code.slice(5, 9))}`,
    admin,
  );
  await api.call('GET', `/activation-codes/${others[0].id}`, admin);
  await api.call('PUT', '/activation-codes/status', {
    ...admin,
    body: { ids: [cancelled.id], status: 'cancelled' },
  });
  await api.call('GET', `/activation-codes?organisation_id=${reseller.id}&status[]=cancelled`, admin);
  await api.call('GET', `/activation-codes/statistics?organisation_id=${reseller.id}`, admin);
  await api.call('GET', `/activation-codes/export?organisation_id[]=${reseller.id}`, {
    ...admin,
    accept: 'text/csv',
  });

  api.flow = 'tags';
  const tag = await api.call<{ id: string }>('POST', '/tags', {
    ...admin,
    body: { type: 'theme', names: { fr: `Contrôle ${label}`, en: `Check ${label}` }, icon: 'compass' },
  });
  await api.call('PUT', `/tags/${tag.id}`, { ...admin, body: { icon: 'map' } });
  await api.call('GET', '/tags?per_page=100', admin);

  api.flow = 'providers';
  const provider = await api.call<{ id: string }>('POST', '/tour/provider', {
    ...admin,
    body: {
      name: `Upgrade check guides ${label}`,
      city: 'Sion',
      country: 'CH',
      latitude: 46.23,
      longitude: 7.36,
      email: `guides-${label}@upgrade-check.example.com`,
    },
  });
  await api.call('PUT', `/tour/provider/${provider.id}`, { ...admin, body: { phone: '+41 27 000 00 00' } });
  await api.call('GET', `/tour/provider/${provider.id}`, admin);
  await api.call('GET', `/tour/providers?search=${encodeURIComponent('Upgrade check')}`, admin);
  await api.call('GET', '/tour/providers?latitude=46.2&longitude=7.3', admin);

  api.flow = 'activities';
  const activity = await api.call<{ id: string }>('POST', '/tour/activity', {
    ...admin,
    body: { provider_id: provider.id, name: `Glacier walk ${label}`, tags: [tag.id], capacity: 12 },
  });
  const unlimited = await api.call<{ id: string }>('POST', '/tour/activity', {
    ...admin,
    body: { provider_id: provider.id, name: `Village visit ${label}`, unlimited: true },
  });
  await api.call('PUT', `/tour/activity/${activity.id}`, { ...admin, body: { capacity: 14 } });
  await api.call('GET', `/tour/activity/${activity.id}`, admin);
  await api.call('GET', `/tour/activities?provider_id=${provider.id}`, admin);
  await api.call('GET', `/tour/activities?tag_ids[]=${tag.id}`, admin);
  const closure = await api.call<{ id: string }>('POST', `/tour/activity/${activity.id}/closures`, {
    ...admin,
    body: { starts_on: zurichDate(200), ends_on: zurichDate(202), reason: 'upgrade check' },
  });
  await api.call('GET', `/tour/activity/${activity.id}/closures`, admin);
  await api.call('DELETE', `/tour/activity/${activity.id}/closures/${closure.id}`, { ...admin, expect: 204 });

  api.flow = 'tours and steps';
  const tour = await api.call<{ id: string }>('POST', '/tour', {
    ...admin,
    body: {
      name: `Upgrade check loop ${label}`,
      color: '#1A2B3C',
      partner_organization_id: reseller.id,
      region_organization_id: region.id,
    },
  });
  const first = await api.call<{ id: string }>('POST', `/tour/${tour.id}/steps`, {
    ...admin,
    body: { day_number: 1, time: '09:00', activity_ids: [activity.id] },
  });
  const second = await api.call<{ id: string }>('POST', `/tour/${tour.id}/steps`, {
    ...admin,
    body: { day_number: 2, time: '14:30', activity_ids: [unlimited.id, activity.id] },
  });
  await api.call('PUT', `/tour/${tour.id}/steps/${first.id}`, { ...admin, body: { time: '08:30' } });
  await api.call('GET', `/tour/${tour.id}/steps/${second.id}`, admin);
  await api.call('PUT', `/tour/${tour.id}/steps/reorder`, {
    ...admin,
    body: { step_ids: [second.id, first.id] },
  });
  await api.call('PUT', `/tour/${tour.id}/steps/reorder`, {
    ...admin,
    body: { step_ids: [first.id, second.id] },
  });
  await api.call('PUT', `/tour/${tour.id}`, { ...admin, body: { color: '#C0392B', status: 'active' } });
  const read = await api.call<{ id: string; status: string }>('GET', `/tour/${tour.id}`, admin);
  api.expect(read.status === 'active', `GET /tour/${tour.id}`, `status ${read.status}, expected active`);
  await api.call('GET', `/tour?search=${encodeURIComponent(label)}&status[]=active`, admin);
  const copy = await api.call<{ id: string }>('POST', `/tour/${tour.id}/duplicate`, admin);
  await api.call('DELETE', `/tour/${copy.id}`, { ...admin, expect: 204 });

  api.flow = 'trips';
  const traveller = { token, hat: 'traveller' };
  await api.call('POST', '/activation-codes/claim', {
    ...traveller,
    body: { full_code: claimed.full_code },
    expect: 200,
  });
  const startsOn = zurichDate(30);
  const trip = await api.call<{ id: string }>('POST', '/trips', {
    ...traveller,
    body: { activation_code_id: claimed.id, tour_id: tour.id, starts_on: startsOn, travellers: 2 },
  });
  await api.call('GET', '/trips', traveller);
  await api.call('GET', `/trips/${trip.id}`, traveller);
  await api.call('GET', `/trips/${trip.id}`, admin);
  await api.call('GET', `/organizations/${region.id}/capacity?date=${startsOn}`, admin);
  await api.call('GET', `/organizations/${region.id}/capacity?from=${startsOn}&to=${zurichDate(36)}`, admin);

  api.flow = 'sign-out';
  await api.call('POST', '/logout', { ...asManager, expect: 204 });
  await api.call('POST', '/logout', { ...admin, expect: 204 });
}

/** Polls `check` until it answers true or `ms` pass; the last answer's problem otherwise. */
async function until(ms: number, check: () => Promise<string | true>): Promise<string | true> {
  const end = Date.now() + ms;
  let last: string | true = 'not tried';
  while (Date.now() < end) {
    last = await check();
    if (last === true) return true;
    await sleep(300);
  }
  return last;
}

async function searchFlows(options: SmokeOptions, search: Http): Promise<void> {
  search.flow = 'search: listings';
  await search.call('GET', '/');
  await search.call('GET', '/health/ready');
  const catalogue = readCatalogue(options.catalogue);
  const listing = await search.call<Listing>('GET', '/travels?size=5&infoDensity=card');
  search.expect(listing.records.length > 0, 'GET /travels?size=5', 'no records');
  await search.call(
    'GET',
    '/travels?destination=CH&category=hiking&orderBy=rating&orderDirection=desc&size=5',
  );
  await search.call('GET', '/travels?dates=2027-01-01_2027-12-31&hide_invalid=true&infoDensity=full&size=3');
  search.flow = 'search: text';
  await search.call('GET', '/travels?search=hiking%20zermatt&size=5&infoDensity=search');
  await search.call('GET', '/travels?search=cooking&explain=true&size=3');

  // Every offer a smoke flow added (this version's or the other's) is found by its word, the text side alone.
  const findMarked = async (marker: string, id: string, waitMs: number) => {
    const path = `/travels?search=${marker}&rrfVectorWeight=0&size=5&infoDensity=min`;
    const outcome = await until(waitMs, async () => {
      const answer = await search.call<Listing>('GET', path);
      const record = answer.records.find((candidate) => candidate.id === id);
      if (!record)
        return `offer ${id} not found (${answer.totalRecords} records: ${answer.records.map((r) => r.id).join(', ')})`;
      return true;
    });
    search.expect(outcome === true, `GET ${path}`, `${outcome} within ${waitMs / 1000} s`);
  };
  const total = async (expected: number, waitMs: number) => {
    const outcome = await until(waitMs, async () => {
      const answer = await search.call<Listing>('GET', '/travels?size=1&infoDensity=min');
      return answer.totalRecords === expected
        ? true
        : `totalRecords ${answer.totalRecords}, expected ${expected}`;
    });
    search.expect(outcome === true, 'GET /travels?size=1', `${outcome} within ${waitMs / 1000} s`);
  };
  search.flow = 'search: the catalogue indexed';
  await total(catalogue.length, 30_000);
  for (const offer of catalogue) {
    const marker = markerOf(offer);
    if (marker) await findMarked(marker, offer.id, 15_000);
  }
  if (options.mode === 'reads') return;

  search.flow = 'search: a reindex from the catalogue';
  const added = addMarkedOffer(options.catalogue, options.label);
  await search.call('GET', '/reindex');
  await total(catalogue.length + 1, 90_000);
  await findMarked(markerOf(added)!, added.id, 30_000);
}

/** Runs the flows; never throws. */
export async function runSmoke(options: SmokeOptions): Promise<SmokeResult> {
  const api = new Http(`${options.backend}/api`, options.log);
  const search = new Http(options.search, options.log);
  const requests = () => api.requests + search.requests;
  try {
    options.log(`backend flows (${options.mode}) on ${options.backend}`);
    await backendFlows(options, api);
    options.log(`search flows (${options.mode}) on ${options.search}`);
    await searchFlows(options, search);
    return { ok: true, requests: requests() };
  } catch (error) {
    if (error instanceof SmokeFailure) {
      return {
        ok: false,
        requests: requests(),
        failure: { flow: error.flow, request: error.request, problem: error.problem },
      };
    }
    return {
      ok: false,
      requests: requests(),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}
