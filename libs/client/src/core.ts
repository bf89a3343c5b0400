import createClient, {
  mergeHeaders,
  type Client,
  type FetchOptions,
  type FetchResponse,
} from 'openapi-fetch';
import { toApiError } from './errors';

/** The HTTP methods the services use. */
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of `Paths` with an operation for `M`. */
export type PathsWith<Paths, M extends Method> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: object } ? P : never;
}[keyof Paths] &
  string;

/** The operation of `M` on `P`. */
export type Operation<Paths, P extends keyof Paths, M extends Method> = Paths[P] extends {
  [K in M]: infer Op;
}
  ? Op
  : never;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * What a call of `Op` takes: `params` (path, query, header) and `body` as the contract says, the
 * usual fetch options (`signal`, `headers` ...), and the client's own (`Extra`, e.g. `hat`).
 */
export type CallInit<Op, Extra> = Omit<
  FetchOptions<Op>,
  'parseAs' | 'baseUrl' | 'fetch' | 'middleware' | 'querySerializer' | 'bodySerializer' | 'pathSerializer'
> &
  Extra;

/** The init argument of a call: required when the operation needs a body or path parameters. */
export type CallArgs<Op, Extra> =
  RequiredKeys<CallInit<Op, Extra>> extends never
    ? [init?: CallInit<Op, Extra>]
    : [init: CallInit<Op, Extra>];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- openapi-fetch's own constraint
type AnyOperation = Record<string | number, any>;

/** The body of the operation's success answer (`void` for a 204). */
export type ResponseData<Op> = Op extends AnyOperation
  ? [NonNullable<FetchResponse<Op, object, `${string}/${string}`>['data']>] extends [never]
    ? void
    : NonNullable<FetchResponse<Op, object, `${string}/${string}`>['data']>
  : never;

/** A typed call: answers the success body, throws ApiError on any other status. */
export type CallMethod<Paths, M extends Method, Extra> = <P extends PathsWith<Paths, M>>(
  path: P,
  ...init: CallArgs<Operation<Paths, P, M>, Extra>
) => Promise<ResponseData<Operation<Paths, P, M>>>;

/** The list paths of `Paths`: GET answers `{data: [...], meta: {last_page ...}}`. */
export type ListPaths<Paths> = {
  [P in PathsWith<Paths, 'get'>]: ResponseData<Operation<Paths, P, 'get'>> extends {
    data: unknown[];
    meta: { last_page: number };
  }
    ? P
    : never;
}[PathsWith<Paths, 'get'>];

/** The item type of a list answer. */
export type ItemOf<Data> = Data extends { data: (infer Item)[] } ? Item : never;

/** Options shared by both clients. */
export interface TransportOptions {
  /** The service's base URL: `https://host/api` for the backend, `https://host` for search. */
  baseUrl: string;
  /** A fetch to use instead of `globalThis.fetch` (tests, retries, instrumentation). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
}

/** What a call sends besides its params and body; `parseAs` chooses how a success is read. */
export interface RawInit {
  params?: object;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  parseAs?: 'json' | 'stream';
  bodySerializer?: (body: unknown) => unknown;
  [key: string]: unknown;
}

type LooseClient = {
  request(
    method: string,
    path: string,
    init?: object,
  ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
};

/**
 * openapi-fetch underneath both clients: builds the request, and turns every answer that is not a
 * 2xx into an ApiError (so success bodies never need an `undefined` check).
 */
export class Transport<Paths extends object> {
  /** The openapi-fetch client itself, for what the typed methods do not cover (answer headers ...). */
  readonly raw: Client<Paths>;

  constructor(options: TransportOptions) {
    this.raw = createClient<Paths>({
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      headers: { Accept: 'application/json', ...options.headers },
    });
  }

  /** One call; `headers` (already merged by the caller) win over the client's. */
  async call(method: Method, path: string, init: RawInit = {}): Promise<unknown> {
    const { headers, middleware, ...rest } = init;
    let url = '';
    const { data, error, response } = await (this.raw as unknown as LooseClient).request(method, path, {
      ...rest,
      headers: mergeHeaders(
        Object.fromEntries(Object.entries(headers ?? {}).filter(([, value]) => value !== undefined)),
      ),
      // The URL as sent, for the error (a Response made by a custom fetch may have none).
      middleware: [
        {
          onRequest: ({ request }: { request: Request }) => {
            url = request.url;
          },
        },
        ...((middleware as object[] | undefined) ?? []),
      ],
    });
    if (!response.ok) throw toApiError(method.toUpperCase(), url || response.url, response, error);
    return data;
  }

  /**
   * Every item of a paginated list, page after page (`per_page` 100, the cap of the backend's
   * lists), until `meta.last_page`. Items added or removed meanwhile may shift pages.
   */
  async *paginate(path: string, init: RawInit = {}, perPage = 100): AsyncGenerator<unknown, void, undefined> {
    const params = (init.params ?? {}) as { query?: Record<string, unknown> };
    for (let page = 1; ; page += 1) {
      const answer = (await this.call('get', path, {
        ...init,
        params: { ...params, query: { ...params.query, page, per_page: perPage } },
      })) as { data: unknown[]; meta: { last_page: number } };
      yield* answer.data;
      if (page >= answer.meta.last_page || answer.data.length === 0) return;
    }
  }
}

/** A text answer as it streams in: iterate it (`for await`), or read it whole with `text()`. */
export interface TextStream extends AsyncIterable<string> {
  /** The decoded text, chunk by chunk, as a web stream (one reader only). */
  readonly stream: ReadableStream<string>;
  /** The whole text. */
  text(): Promise<string>;
}

/** Decodes a byte stream as UTF-8 (without relying on the streams' own async iteration). */
export function textStream(bytes: ReadableStream<Uint8Array> | null): TextStream {
  const decoder = new TextDecoder();
  const reader = bytes?.getReader();
  const stream = new ReadableStream<string>({
    async pull(controller) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) {
        const tail = decoder.decode();
        if (tail) controller.enqueue(tail);
        controller.close();
      } else {
        const text = decoder.decode(chunk.value, { stream: true });
        if (text) controller.enqueue(text);
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
  const iterate = async function* (): AsyncGenerator<string, void, undefined> {
    const texts = stream.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await texts.read();
        if (done) {
          finished = true;
          return;
        }
        yield value;
      }
    } finally {
      // Left early (break, throw): stop the download too.
      if (!finished) await texts.cancel();
      texts.releaseLock();
    }
  };
  return {
    stream,
    [Symbol.asyncIterator]: iterate,
    async text() {
      let all = '';
      for await (const chunk of iterate()) all += chunk;
      return all;
    },
  };
}
