import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { DEFAULT_ANCHOR_DATE, DEFAULT_SEED, generateCatalogue } from '../catalogue/catalogue-generator';

const USAGE = `Usage: pnpm --filter search catalogue:generate [--count 2000] [--seed ${DEFAULT_SEED}] [--anchor ${DEFAULT_ANCHOR_DATE}] [--out file.ndjson]

Writes the deterministic demo catalogue as NDJSON (one record a line) to --out or stdout.
CATALOGUE_SOURCE=generated:<count>[:<seed>] indexes the same records without a file.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '2000' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      anchor: { type: 'string', default: DEFAULT_ANCHOR_DATE },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  for (const record of generateCatalogue({
    count: Number(values.count),
    seed: Number(values.seed),
    anchorDate: values.anchor,
  })) {
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  }
  if (values.out) {
    out.end();
    await once(out, 'finish');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
