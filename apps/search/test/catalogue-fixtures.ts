import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import type { Language } from '../src/query/analysis/languages';

/** A valid catalogue record; override any field. */
export function makeOffer(id: string, overrides: Partial<CatalogueRecord> = {}): CatalogueRecord {
  return {
    id,
    name: `Offer ${id}`,
    slug: `offer-${id.toLowerCase()}`,
    description: `Description of ${id}`,
    rating: 4,
    duration: 7,
    nextDeparture: '2027-03-01T08:00:00',
    departureDates: ['2027-03-01T08:00:00'],
    destination: { code: 'FR', name: 'France' },
    categories: [{ slug: 'culture', name: 'Culture' }],
    discountClub: false,
    seaside: false,
    isValid: true,
    extra: { kept: true },
    ...overrides,
  };
}

/**
 * An offer written for a ranking test: its name and description in `language`, a category that
 * says nothing (`other`), in Switzerland unless `destination` says otherwise.
 */
export const languageOffer = (
  id: string,
  language: Language,
  name: string,
  description: string,
  destination = { code: 'CH', name: 'Suisse' },
): CatalogueRecord =>
  makeOffer(id, { name, description, language, destination, categories: [{ slug: 'other', name: 'Other' }] });

export const toNdjson = (records: unknown[]) =>
  records.map((record) => JSON.stringify(record)).join('\n') + '\n';

/** A temporary folder for catalogue files, removed by `cleanup`. */
export async function catalogueFolder(): Promise<{
  file(name: string, content: string): Promise<string>;
  cleanup(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'rt-search-catalogue-'));
  return {
    file: async (name, content) => {
      const path = join(dir, name);
      await writeFile(path, content);
      return path;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A local HTTP server for catalogue sources; `handler` decides each answer. */
export async function catalogueServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const server = createServer((request, response) => {
    void Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Offers sharing no word with a test's own (`Offer number 7`, "Somewhere else entirely."), so that
 * none of the test's words is held by more than a tenth of the catalogue (frequent: README, "The
 * text side").
 */
export function fillerOffers(count: number, destination = { code: 'ES', name: 'Spain' }): CatalogueRecord[] {
  return Array.from({ length: count }, (_, i) =>
    makeOffer(`F${String(i).padStart(2, '0')}`, {
      name: `Offer number ${i}`,
      description: 'Somewhere else entirely.',
      destination,
      categories: [{ slug: 'other', name: 'Other' }],
      language: 'en',
    }),
  );
}
