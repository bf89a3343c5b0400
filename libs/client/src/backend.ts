import type { Client } from 'openapi-fetch';
import {
  Transport,
  textStream,
  type CallArgs,
  type CallInit,
  type CallMethod,
  type ItemOf,
  type ListPaths,
  type Method,
  type Operation,
  type RawInit,
  type ResponseData,
  type TextStream,
  type TransportOptions,
} from './core';
import type { components, operations, paths } from './generated/backend';

/** The backend's schemas by name (`BackendSchemas['TourResponseDto']`). */
export type BackendSchemas = components['schemas'];

/**
 * The viewing context sent as `X-Viewing-As` (docs/decisions.md D-22): the
 * super-admin hat, an organization's, or the traveller's (held by every signed-in user).
 */
export type Hat = 'super-admin' | 'traveller' | `organization:${string}`;

/** The hat of one organization. */
export const organizationHat = (organizationId: string): Hat => `organization:${organizationId}`;

/** What every backend call may add to its params and body. */
export interface BackendCallOptions {
  /** The hat of this call only, instead of the client's. */
  hat?: Hat;
}

// The client sends X-Viewing-As itself (its hat, or the call's `hat`): the header parameter the
// contract requires is taken out of each operation's params.
type WithoutHatHeader<Op> = Op extends { parameters: infer Params }
  ? Params extends { header: infer Header }
    ? Omit<Op, 'parameters'> & {
        parameters: Omit<Params, 'header'> & { header?: Omit<Header, 'X-Viewing-As'> };
      }
    : Op
  : Op;

/** The backend's paths as the client takes them (no X-Viewing-As parameter). */
export type BackendPaths = {
  [P in keyof paths]: {
    [M in keyof paths[P]]: M extends Method ? WithoutHatHeader<paths[P][M]> : paths[P][M];
  };
};

type Op<P extends keyof BackendPaths, M extends Method> = Operation<BackendPaths, P, M>;

/** The success body of `M` on `P`: `BackendResponse<'/tour/{id}', 'get'>`. */
export type BackendResponse<P extends keyof BackendPaths, M extends Method = 'get'> = ResponseData<Op<P, M>>;
/** The JSON body of `M` on `P`: `BackendBody<'/tour', 'post'>`. */
export type BackendBody<P extends keyof BackendPaths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
/** The query of `GET` on `P`. */
export type BackendQuery<P extends keyof BackendPaths, M extends Method = 'get'> = NonNullable<
  Op<P, M> extends { parameters: { query?: infer Query } } ? Query : never
>;

export type LoginInput = BackendSchemas['LoginDto'];
export type LoginAnswer = BackendSchemas['LoginResponseDto'];
export type ImageAnswer = BackendSchemas['ImageResponseDto'];
export type CodesExportQuery = NonNullable<operations['exportActivationCodes']['parameters']['query']>;

export interface BackendClientOptions extends TransportOptions {
  /** A token kept from an earlier sign-in; `signIn` sets it, `signOut` clears it. */
  token?: string | null;
  /** The hat of every call that names none (`hat` per call overrides it). */
  hat?: Hat | null;
  /** Told of every change of the token (to keep it in storage). */
  onTokenChange?: (token: string | null) => void;
}

/** How `signOut` went: the token is cleared locally in every case. */
export type SignOutResult = { revoked: true } | { revoked: false; error: unknown };

/** An image to upload: a Blob (a File in a browser), or bytes (a Node Buffer is a Uint8Array). */
export type ImageSource = Blob | ArrayBuffer | Uint8Array;

export interface UploadImageOptions extends BackendCallOptions {
  /** The file name sent with the part; the server reads the content, not the name. */
  filename?: string;
  /** The part's type when `image` is bytes (e.g. `image/png`). */
  type?: string;
  signal?: AbortSignal;
}

export interface BackendClient {
  /** `GET`: answers the success body, throws `ApiError` otherwise (as every method does). */
  GET: CallMethod<BackendPaths, 'get', BackendCallOptions>;
  POST: CallMethod<BackendPaths, 'post', BackendCallOptions>;
  PUT: CallMethod<BackendPaths, 'put', BackendCallOptions>;
  PATCH: CallMethod<BackendPaths, 'patch', BackendCallOptions>;
  DELETE: CallMethod<BackendPaths, 'delete', BackendCallOptions>;

  /** The bearer token in use, null when signed out. */
  readonly token: string | null;
  /** The default hat, null when none (then calls that need one must name it). */
  readonly hat: Hat | null;
  setToken(token: string | null): void;
  setHat(hat: Hat | null): void;

  /** `POST /login`; keeps the token for the next calls. */
  signIn(input: LoginInput, options?: { signal?: AbortSignal }): Promise<LoginAnswer>;
  /**
   * `POST /logout`, then forgets the token even when the server call fails (docs/backend-api.md,
   * "POST /logout"): offline, an expired token, a server error. Never throws.
   */
  signOut(options?: { signal?: AbortSignal }): Promise<SignOutResult>;

  /** Every item of a list (`GET` of a paginated path), fetched 100 per page. */
  paginate<P extends ListPaths<BackendPaths>>(
    path: P,
    ...init: CallArgs<Op<P, 'get'>, BackendCallOptions>
  ): AsyncGenerator<ItemOf<BackendResponse<P>>, void, undefined>;

  /** `GET /activation-codes/export`: the CSV as it streams in (super-admin). */
  exportCodes(
    query?: CodesExportQuery,
    options?: BackendCallOptions & { signal?: AbortSignal },
  ): Promise<TextStream>;

  /** `POST /images` (multipart, field `image`): the stored image and its signed variants. */
  uploadImage(image: ImageSource, options?: UploadImageOptions): Promise<ImageAnswer>;

  /** The openapi-fetch client underneath (no error conversion, no token or hat added). */
  readonly raw: Client<BackendPaths>;
}

/**
 * A client of the road-trip backend. `baseUrl` includes the API prefix
 * (`http://localhost:3000/api`).
 */
export function createBackendClient(options: BackendClientOptions): BackendClient {
  const transport = new Transport<BackendPaths>(options);
  let token = options.token ?? null;
  let hat = options.hat ?? null;
  const setToken = (next: string | null): void => {
    if (next === token) return;
    token = next;
    options.onTokenChange?.(next);
  };

  /** The call's init with the token and the hat as headers (the call's own headers win). */
  const prepare = (init: (RawInit & BackendCallOptions) | undefined): RawInit => {
    const { hat: callHat, headers, ...rest } = init ?? {};
    const viewingAs = callHat ?? hat;
    return {
      ...rest,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(viewingAs ? { 'X-Viewing-As': viewingAs } : {}),
        ...(headers as Record<string, string> | undefined),
      },
    };
  };
  const method = <M extends Method>(name: M): CallMethod<BackendPaths, M, BackendCallOptions> =>
    ((path: string, init?: RawInit & BackendCallOptions) =>
      transport.call(name, path, prepare(init))) as CallMethod<BackendPaths, M, BackendCallOptions>;

  return {
    GET: method('get'),
    POST: method('post'),
    PUT: method('put'),
    PATCH: method('patch'),
    DELETE: method('delete'),
    get token() {
      return token;
    },
    get hat() {
      return hat;
    },
    setToken,
    setHat(next) {
      hat = next;
    },

    async signIn(input, signInOptions) {
      const answer = (await transport.call('post', '/login', {
        ...prepare({ signal: signInOptions?.signal }),
        body: input,
      })) as LoginAnswer;
      setToken(answer.token);
      return answer;
    },

    async signOut(signOutOptions) {
      try {
        if (!token) return { revoked: false, error: new Error('Not signed in.') };
        await transport.call('post', '/logout', prepare({ signal: signOutOptions?.signal }));
        return { revoked: true };
      } catch (error) {
        return { revoked: false, error };
      } finally {
        setToken(null);
      }
    },

    paginate(path, ...init) {
      return transport.paginate(path, prepare(init[0] as RawInit | undefined)) as AsyncGenerator<
        never,
        void,
        undefined
      >;
    },

    async exportCodes(query, exportOptions) {
      const { signal, ...callOptions } = exportOptions ?? {};
      const body = await transport.call('get', '/activation-codes/export', {
        ...prepare({ ...callOptions, signal, headers: { Accept: 'text/csv' } }),
        params: { query },
        parseAs: 'stream',
      });
      return textStream(body as ReadableStream<Uint8Array> | null);
    },

    async uploadImage(image, uploadOptions = {}) {
      const { filename = 'image', type, signal, ...callOptions } = uploadOptions;
      const blob =
        image instanceof Blob
          ? image
          : new Blob([image instanceof ArrayBuffer ? image : image.slice()], type ? { type } : {});
      const form = new FormData();
      form.append('image', blob, filename);
      return (await transport.call('post', '/images', {
        ...prepare({ ...callOptions, signal }),
        body: form,
        bodySerializer: (body) => body,
      })) as ImageAnswer;
    },

    raw: transport.raw,
  };
}

// Exported for the type tests and for apps that wrap calls of their own.
export type { CallInit };
