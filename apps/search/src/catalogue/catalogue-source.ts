import { Injectable } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { generateCatalogue, parseGeneratedSource } from './catalogue-generator';
import { generateDemoCatalogue, parseDemoSource } from './demo-catalogue-generator';

/** One item read from a source: a parsed JSON value, or a line that is not JSON (NDJSON). */
export type SourceItem =
  | { kind: 'value'; position: number; value: unknown }
  | { kind: 'unparsable'; position: number; error: string };

export interface OpenedSource {
  /** Number of records when known up front (JSON array, generator, counted NDJSON file). */
  total?: number;
  items: AsyncIterable<SourceItem>;
}

/** The source failed as a whole (unreachable, not JSON, not a list): the reindex changes nothing. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

/** `https://user:secret@host/path?key=…` → `https://host/path`: what logs and the runs table may show. */
export function describeSource(source: string): string {
  if (!/^https?:\/\//i.test(source)) return source;
  try {
    const url = new URL(source);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return 'http source';
  }
}

/**
 * Reads the catalogue (CATALOGUE_SOURCE): a JSON array or NDJSON file, an HTTP(S) URL answering
 * either, `demo:<count>[:<seed>]` (the demo catalogue, dated from the day it is read) or
 * `generated:<count>[:<seed>]` (the fixed-date catalogue of the judged sets and benchmarks). NDJSON is streamed line by line; a JSON array is parsed
 * whole (a document that does not parse fails the source).
 */
@Injectable()
export class CatalogueSourceReader {
  async open(source: string, timeoutMs: number): Promise<OpenedSource> {
    const generated = parseGeneratedSource(source);
    if (generated) return { total: generated.count, items: fromValues(generateCatalogue(generated)) };
    const demo = parseDemoSource(source);
    if (demo) {
      return { total: demo.count, items: fromValues(generateDemoCatalogue(demo)) };
    }
    if (/^https?:\/\//i.test(source)) return this.openUrl(source, timeoutMs);
    return this.openFile(source.replace(/^file:\/\//, ''));
  }

  private async openFile(path: string): Promise<OpenedSource> {
    try {
      await stat(path);
    } catch (error) {
      throw new SourceError(`cannot read ${path}: ${(error as Error).message}`);
    }
    const extension = extname(path).toLowerCase();
    if (extension === '.ndjson' || extension === '.jsonl') {
      const total = await countLines(path);
      return { total, items: fromLines(createReadStream(path, { encoding: 'utf8' })) };
    }
    const text = await readFile(path, 'utf8').catch((error: Error) => {
      throw new SourceError(`cannot read ${path}: ${error.message}`);
    });
    return fromDocument(text, path, extension === '.json');
  }

  private async openUrl(url: string, timeoutMs: number): Promise<OpenedSource> {
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, { signal, headers: { accept: 'application/json, application/x-ndjson' } });
    } catch (error) {
      throw new SourceError(`cannot fetch ${describeSource(url)}: ${(error as Error).message}`);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new SourceError(`${describeSource(url)} answered ${response.status}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (/ndjson|jsonl|jsonlines/i.test(type) || /\.(ndjson|jsonl)$/i.test(new URL(url).pathname)) {
      const stream = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      stream.setEncoding('utf8');
      return { items: fromLines(stream, () => describeSource(url)) };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new SourceError(`reading ${describeSource(url)} failed: ${(error as Error).message}`);
    }
    return fromDocument(text, describeSource(url));
  }
}

/** A whole document: a JSON array of records, or (unless an array is expected) NDJSON when it does not start with `[`. */
function fromDocument(text: string, name: string, expectArray = false): OpenedSource {
  if (!expectArray && !text.trimStart().startsWith('[')) {
    return { items: fromLines(Readable.from([text])) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SourceError(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new SourceError(`${name} is not a JSON array of records`);
  return { total: parsed.length, items: fromValues(parsed) };
}

async function* fromValues(values: Iterable<unknown>): AsyncGenerator<SourceItem> {
  let position = 0;
  for (const value of values) yield { kind: 'value', position: ++position, value };
}

async function* fromLines(stream: Readable, name?: () => string): AsyncGenerator<SourceItem> {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let position = 0;
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      position++;
      try {
        yield { kind: 'value', position, value: JSON.parse(line) as unknown };
      } catch (error) {
        yield { kind: 'unparsable', position, error: (error as Error).message };
      }
    }
  } catch (error) {
    throw new SourceError(`reading ${name?.() ?? 'the source'} failed: ${(error as Error).message}`);
  }
}

async function countLines(path: string): Promise<number> {
  let count = 0;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') count++;
  return count;
}
