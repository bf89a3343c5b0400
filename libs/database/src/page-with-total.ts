/** A parameterised statement, as `query(text, values)` takes it. */
export interface Sql {
  text: string;
  values: unknown[];
}

export interface PageWithTotalParts {
  /** Common table expressions the count and the page both read, without `WITH`. */
  with?: string;
  /** What is counted: the content of the count's FROM clause (`trips t WHERE t.user_id = $1`). */
  counted: string;
  /** The page: a SELECT with its order (ending with a unique key), LIMIT and OFFSET. */
  page: string;
  /** The parameters of all three parts. */
  values: unknown[];
}

/** The page and its total, as a repository hands them to its service. */
export interface PageOf<T> {
  items: T[];
  total: number;
}

/**
 * One page and the exact size of the filtered set in one statement (one round trip, one snapshot):
 * the count, with the page joined laterally to it, so that an empty page still carries the total
 * (one row whose page columns are all null, which `splitPage` leaves out). Every row holds `total`
 * first, then the page's columns.
 */
export function pageWithTotalSql(parts: PageWithTotalParts): Sql {
  return {
    text: `${parts.with ? `WITH ${parts.with}\n` : ''}SELECT t.total, p.*
  FROM (SELECT count(*)::integer AS total FROM ${parts.counted}) t
  LEFT JOIN LATERAL (${parts.page}) p ON true`,
    values: parts.values,
  };
}

/**
 * The rows of a `pageWithTotalSql` statement as the page's items, each made by `toItem`, and the
 * total: the null row of an empty page (its `id` null) is left out.
 */
export function splitPage<Row extends { total: number | string | null; id: unknown }, T>(
  rows: readonly Row[],
  toItem: (row: Row) => T,
): PageOf<T> {
  return {
    items: rows.filter((row) => row.id !== null).map(toItem),
    total: Number(rows[0]?.total ?? 0),
  };
}
