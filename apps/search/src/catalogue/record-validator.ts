import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { CatalogueRecord, isLocalDateTime } from './catalogue-record';
import schema from './travel-offer.schema.json';

export type RecordCheck = { ok: true; record: CatalogueRecord } | { ok: false; problems: string[] };

/** Validates catalogue records against travel-offer.schema.json (JSON Schema 2020-12, with ajv). */
export class RecordValidator {
  /** Stops at the first error: the fast path for the many valid records. */
  private readonly validate: ValidateFunction<CatalogueRecord>;
  /** Collects every error: run again on an invalid record, for the log. */
  private readonly explain: ValidateFunction<CatalogueRecord>;

  constructor() {
    this.validate = compile(false);
    this.explain = compile(true);
  }

  check(value: unknown): RecordCheck {
    if (this.validate(value)) return { ok: true, record: value };
    this.explain(value);
    return { ok: false, problems: (this.explain.errors ?? []).slice(0, 5).map(describe) };
  }
}

function compile(allErrors: boolean): ValidateFunction<CatalogueRecord> {
  const ajv = new Ajv2020({ allErrors, strict: true, allowUnionTypes: true });
  ajv.addFormat('local-date-time', { type: 'string', validate: isLocalDateTime });
  return ajv.compile<CatalogueRecord>(schema);
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`;
}
