import type { Sql } from '@rt/database';

/** The casts a parameter is given in the search statements (identifiers come from this fixed set). */
export type SqlCast = 'text' | 'text[]' | 'int' | 'float8' | 'vector' | 'datemultirange';

/**
 * The parameters of one statement, numbered in the order they are added: `add` answers the
 * placeholder (`$3`, or `$3::float8` with a cast) to write into the text, where it may appear as
 * often as needed. Every value is a parameter; nothing is numbered by hand.
 */
export class SqlParams {
  private readonly list: unknown[] = [];

  /** Appends `value` and answers its placeholder, cast when `cast` is given. */
  add(value: unknown, cast?: SqlCast): string {
    this.list.push(value);
    const placeholder = `$${this.list.length}`;
    return cast === undefined ? placeholder : `${placeholder}::${cast}`;
  }

  /** The values so far, in placeholder order. */
  get values(): unknown[] {
    return [...this.list];
  }

  /** The statement `text` with these values. */
  sql(text: string): Sql {
    return { text, values: this.values };
  }
}
