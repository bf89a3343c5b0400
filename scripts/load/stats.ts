/** Figures of one request kind (or of all), as reported. */
export interface KindFigures {
  kind: string;
  service: string;
  count: number;
  errors: number;
  /** Requests per second over the measured phase. */
  throughput: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** Mean response size in bytes. */
  meanBytes: number | null;
  /** Answers by HTTP status (0: no answer: connection error or timeout). */
  statuses: Record<string, number>;
}

/** Latencies and outcomes of one request kind during the measured phase. */
export class KindRecorder {
  readonly latencies: number[] = [];
  readonly statuses = new Map<number, number>();
  errors = 0;
  bytes = 0;
  /** The first few failures, for the report. */
  readonly samples: string[] = [];

  constructor(
    readonly kind: string,
    readonly service: string,
  ) {}

  record(ms: number, status: number, bytes: number, failure?: string): void {
    this.latencies.push(ms);
    this.bytes += bytes;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (failure !== undefined) {
      this.errors++;
      if (this.samples.length < 5) this.samples.push(failure);
    }
  }
}

/**
 * The `p`-th percentile (0–100) of samples sorted ascending, nearest rank: the smallest value
 * with at least p% of the samples at or below it.
 */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

const round = (value: number | null, digits = 1) =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

export function figuresOf(
  kind: string,
  service: string,
  latencies: number[],
  errors: number,
  bytes: number,
  statuses: Map<number, number>,
  seconds: number,
): KindFigures {
  const sorted = Float64Array.from(latencies).sort();
  const values = Array.from(sorted);
  return {
    kind,
    service,
    count: values.length,
    errors,
    throughput: round(seconds > 0 ? values.length / seconds : 0) ?? 0,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(values.length ? values[values.length - 1] : null),
    meanBytes: values.length ? Math.round(bytes / values.length) : null,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n])),
  };
}

/** Per kind, in the given order, then one line per service and one for all. */
export function summarize(recorders: KindRecorder[], seconds: number): KindFigures[] {
  const merged = (name: string, service: string, group: KindRecorder[]) => {
    const statuses = new Map<number, number>();
    for (const r of group) for (const [s, n] of r.statuses) statuses.set(s, (statuses.get(s) ?? 0) + n);
    return figuresOf(
      name,
      service,
      group.flatMap((r) => r.latencies),
      group.reduce((sum, r) => sum + r.errors, 0),
      group.reduce((sum, r) => sum + r.bytes, 0),
      statuses,
      seconds,
    );
  };
  const services = [...new Set(recorders.map((r) => r.service))];
  return [
    ...recorders.map((r) =>
      figuresOf(r.kind, r.service, r.latencies, r.errors, r.bytes, r.statuses, seconds),
    ),
    ...services.map((service) =>
      merged(
        `all ${service}`,
        service,
        recorders.filter((r) => r.service === service),
      ),
    ),
    merged('all', 'both', recorders),
  ];
}

/** A fixed-width text table of figures. */
export function table(rows: KindFigures[]): string {
  const header = ['kind', 'service', 'count', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'errors'];
  const cell = (value: number | null) => (value === null ? '-' : String(value));
  const lines = rows.map((r) => [
    r.kind,
    r.service,
    String(r.count),
    r.throughput.toFixed(1),
    cell(r.p50),
    cell(r.p95),
    cell(r.p99),
    cell(r.max),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const format = (line: string[]) =>
    line.map((value, i) => (i < 2 ? value.padEnd(widths[i]) : value.padStart(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const firstTotal = rows.findIndex((r) => r.kind.startsWith('all'));
  const body = lines.map(format);
  if (firstTotal > 0) body.splice(firstTotal, 0, rule);
  return [format(header), rule, ...body].join('\n');
}
