import type { Client } from 'openapi-fetch';
import {
  Transport,
  type CallMethod,
  type Method,
  type Operation,
  type RawInit,
  type ResponseData,
  type TransportOptions,
} from './core';
import type { components, operations, paths } from './generated/search';

/** The search service's schemas by name (`SearchSchemas['TravelCardDto']`). */
export type SearchSchemas = components['schemas'];

/** The success body of `M` on `P`: `SearchResponse<'/travels'>`. */
export type SearchResponse<P extends keyof paths, M extends Method = 'get'> = ResponseData<
  Operation<paths, P, M>
>;

/** The query of `GET /travels`. */
export type TravelsQuery = NonNullable<operations['TravelsController_list']['parameters']['query']>;
export type InfoDensity = NonNullable<TravelsQuery['infoDensity']>;

/**
 * A record as `infoDensity` shapes it; `full` (or none) is the whole stored record, whose fields
 * beyond the id and the scores the contract does not list.
 */
export type TravelRecord<Density extends InfoDensity | undefined = undefined> = Density extends 'min'
  ? SearchSchemas['TravelMinDto']
  : Density extends 'card'
    ? SearchSchemas['TravelCardDto']
    : Density extends 'search'
      ? SearchSchemas['TravelSearchDto']
      : SearchSchemas['TravelFullDto'] & { [field: string]: unknown };

/** The listing of `GET /travels`, its records typed by `infoDensity`. */
export type TravelListing<Density extends InfoDensity | undefined = undefined> = Omit<
  SearchSchemas['TravelListingResponseDto'],
  'records'
> & { records: TravelRecord<Density>[] };

export type SearchClientOptions = TransportOptions;

export interface SearchClient {
  /** `GET`: answers the success body, throws `ApiError` otherwise. */
  GET: CallMethod<paths, 'get', object>;

  /**
   * `GET /travels`: filters, free-text search (hybrid ranking), sorting and paging; the records
   * are typed by `infoDensity`. `fallback` is true when the answer is full-text only
   * (`X-Search-Fallback: fulltext`, the embedding provider being down).
   */
  travels<Density extends InfoDensity | undefined = undefined>(
    query?: TravelsQuery & { infoDensity?: Density },
    options?: { signal?: AbortSignal },
  ): Promise<TravelListing<Density> & { fallback: boolean }>;

  /** The openapi-fetch client underneath (no error conversion). */
  readonly raw: Client<paths>;
}

/** A client of the travel search service (`baseUrl`: `http://localhost:3001`, no prefix). */
export function createSearchClient(options: SearchClientOptions): SearchClient {
  const transport = new Transport<paths>(options);
  return {
    GET: ((path: string, init?: RawInit) => transport.call('get', path, init)) as CallMethod<
      paths,
      'get',
      object
    >,

    async travels(query, travelsOptions) {
      let fallback = false;
      const listing = await transport.call('get', '/travels', {
        params: { query },
        signal: travelsOptions?.signal,
        // Reads the answer's header on the way (the body is the listing itself).
        middleware: [
          {
            onResponse: ({ response }: { response: Response }) => {
              fallback = response.headers.get('X-Search-Fallback') === 'fulltext';
            },
          },
        ],
      });
      return { ...(listing as TravelListing<never>), fallback };
    },

    raw: transport.raw,
  };
}
