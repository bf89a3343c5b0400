import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { domainToASCII } from 'node:url';
import type { FuzzOperation, OpenApiDocument } from './openapi';
import { documentedResponse, pointerSegment } from './openapi';

export type ProblemKind = 'server-error' | 'undocumented-status' | 'content-type' | 'body';

export interface ContractProblem {
  kind: ProblemKind;
  message: string;
  /** Ajv's errors, when the body does not match the documented schema. */
  errors?: string[];
}

export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Keywords of an OpenAPI document (and of its schema objects) that are not JSON Schema. */
const OPENAPI_KEYWORDS = [
  'openapi',
  'info',
  'paths',
  'components',
  'servers',
  'tags',
  'security',
  'webhooks',
  'jsonSchemaDialect',
  'externalDocs',
  'discriminator',
  'xml',
  'example',
];

const isJsonMedia = (mediaType: string) =>
  /^application\/(.+\+)?json$/.test(mediaType) || mediaType === '*/*';

/** `text/csv; charset=utf-8` → `text/csv`. */
export const mediaTypeOf = (contentType: string | string[] | undefined): string | undefined =>
  typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : undefined;

function mediaMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

export const formatAjvError = (error: ErrorObject): string =>
  `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${
    error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''
  } (${error.schemaPath})`;

/**
 * JSON Schema's `idn-email` (RFC 6531), which ajv-formats lacks: a local part without spaces or
 * controls, an `@`, and a domain UTS-46 accepts.
 */
export const isIdnEmail = (value: string): boolean => {
  const at = value.lastIndexOf('@');
  if (at <= 0 || /[\s\p{Cc}]/u.test(value)) return false;
  return domainToASCII(value.slice(at + 1)).includes('.');
};

/**
 * Checks answers against the document with Ajv's 2020-12 validator. The whole document is added
 * as one schema resource, so `#/components/...` references resolve where they point; each
 * response schema is compiled from its JSON pointer, once. A 5xx is always a problem, and so is a
 * status the operation does not document, a media type it does not document for that status, a
 * body where it documents none, or a body its schema refuses.
 */
export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly id: string;

  constructor(document: OpenApiDocument, name = 'contract') {
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('idn-email', isIdnEmail);
    for (const keyword of OPENAPI_KEYWORDS) this.ajv.addKeyword({ keyword });
    this.id = `https://contract.invalid/${encodeURIComponent(name)}.json`;
    this.ajv.addSchema({ ...document, $id: this.id });
  }

  private validatorFor(operation: FuzzOperation, status: string, mediaType: string): ValidateFunction {
    const pointer = [
      'paths',
      operation.path,
      operation.method.toLowerCase(),
      'responses',
      status,
      'content',
      mediaType,
      'schema',
    ]
      .map(pointerSegment)
      .join('/');
    const key = `${this.id}#/${pointer}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.getSchema(key);
      if (!validate) throw new Error(`No schema at ${key}`);
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Every way the answer departs from the contract (empty: it conforms). */
  check(operation: FuzzOperation, response: ObservedResponse): ContractProblem[] {
    const problems: ContractProblem[] = [];
    if (response.status >= 500) {
      problems.push({
        kind: 'server-error',
        message: `${response.status} answered: a server error is never acceptable`,
      });
    }
    const documented = documentedResponse(operation, response.status);
    if (!documented) {
      problems.push({
        kind: 'undocumented-status',
        message: `${response.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`,
      });
      return problems;
    }
    const content = documented.content;
    const media = mediaTypeOf(response.headers['content-type']);
    if (!content || Object.keys(content).length === 0) {
      if (response.body.length > 0 && operation.method !== 'HEAD') {
        problems.push({
          kind: 'body',
          message: `${documented.status} documents no body, got ${response.body.length} bytes (${media ?? 'no type'})`,
        });
      }
      return problems;
    }
    const documentedType = media ? Object.keys(content).find((type) => mediaMatches(type, media)) : undefined;
    if (!documentedType) {
      problems.push({
        kind: 'content-type',
        message: `${documented.status} documents ${Object.keys(content).join(', ')}, got ${media ?? 'no Content-Type'}`,
      });
      return problems;
    }
    if (!content[documentedType]) return problems;
    let value: unknown;
    if (isJsonMedia(media!)) {
      try {
        value = JSON.parse(response.body.toString('utf8'));
      } catch {
        problems.push({ kind: 'body', message: `the ${media} body is not JSON` });
        return problems;
      }
    } else if (media!.startsWith('text/')) {
      value = response.body.toString('utf8');
    } else {
      return problems;
    }
    const validate = this.validatorFor(operation, documented.status, documentedType);
    if (!validate(value)) {
      problems.push({
        kind: 'body',
        message: `the body does not match the ${documented.status} ${documentedType} schema`,
        errors: (validate.errors ?? []).slice(0, 8).map(formatAjvError),
      });
    }
    return problems;
  }
}
