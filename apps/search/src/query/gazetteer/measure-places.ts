import { statSync } from 'node:fs';
import { PLACE_POINTS_PATH } from './gazetteer';
import { loadTowns, REGIONS_PATH, TOWNS_PATH } from './towns';

/**
 * What the place data costs a replica (GAZETTEER.md, "Memory and load time"; docs/decisions.md
 * D-87): the files' sizes, the time loadTowns takes, the memory it holds (heap and typed arrays,
 * process.memoryUsage after a collection, before and after) and what a look-up and a distance
 * pass take. `pnpm --filter search gazetteer:measure` (node --expose-gc).
 */
function collect(): NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function main(): void {
  if (!(globalThis as { gc?: () => void }).gc) console.log('(run with node --expose-gc for exact figures)');
  for (const path of [TOWNS_PATH, REGIONS_PATH, PLACE_POINTS_PATH]) {
    console.log(`${path.split('/').pop()}\t${mib(statSync(path).size)}`);
  }
  const before = collect();
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const towns = loadTowns();
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const { user, system } = process.cpuUsage(cpu);
  const after = collect();
  console.log(
    `loadTowns: ${towns.size} towns, ${towns.regions().length} regions in ${loadMs.toFixed(0)} ms ` +
      `(CPU ${((user + system) / 1e3).toFixed(0)} ms: the figure on a shared machine)`,
  );
  console.log(
    `held: heap ${mib(after.heapUsed - before.heapUsed)}, array buffers ${mib(
      after.arrayBuffers - before.arrayBuffers,
    )}, rss ${mib(after.rss - before.rss)}`,
  );
  // distance passes around every 50th town, 25 km
  let found = 0;
  let passes = 0;
  const nearStarted = process.hrtime.bigint();
  for (let i = 0; i < towns.size; i += 50, passes++) found += towns.nearby(towns.town(i).point, 25).length;
  const nearUs = Number(process.hrtime.bigint() - nearStarted) / 1e3 / passes;
  console.log(
    `nearby(25 km): ${passes} passes, ${(found / passes).toFixed(1)} towns each, ${nearUs.toFixed(0)} µs a pass`,
  );
  const names = [...towns.townNames()].filter((_, i) => i % 20 === 0);
  const lookupStarted = process.hrtime.bigint();
  for (const name of names) towns.lookupFolded(name);
  const lookupUs = Number(process.hrtime.bigint() - lookupStarted) / 1e3 / names.length;
  console.log(`lookupFolded: ${names.length} names, ${lookupUs.toFixed(2)} µs a look-up`);
}

if (require.main === module) main();
