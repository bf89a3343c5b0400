// The reliability figures of the last `pnpm test` (docs/reliability.md): what the fuzz and fault
// tests wrote to .test-results/, summed into one table. Prints nothing when none of them ran.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = join(import.meta.dirname, '..', '.test-results');
const read = (name) => {
  const file = join(directory, `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};
const sum = (values) => values.reduce((total, value) => total + (value ?? 0), 0);
const serverErrorsBut503 = (byStatus = {}) =>
  sum(
    Object.entries(byStatus).map(([status, count]) =>
      Number(status) >= 500 && Number(status) !== 503 ? count : 0,
    ),
  );

const rows = [];
for (const service of ['backend', 'search']) {
  const fuzz = read(`fuzz-${service}`);
  if (fuzz) {
    rows.push({
      test: `fuzz ${service}`,
      requests: fuzz.requests,
      serverErrors: fuzz.serverErrors,
      faults: 0,
      writesLost: fuzz.partialWrites,
      duplicates: 0,
      other: `${fuzz.contractViolations} contract violations, ${fuzz.refusalsChecked} refusals checked`,
    });
  }
}
const backendFaults = read('faults-backend');
if (backendFaults) {
  const totals = backendFaults.databaseOutage.find((entry) => 'requestsTried' in entry) ?? {};
  const { smtpDown = {}, replicas = {} } = backendFaults;
  rows.push({
    test: 'faults backend',
    requests: totals.requestsTried,
    serverErrors: totals.serverErrorsOtherThan503,
    faults: backendFaults.faultsInjected.length,
    writesLost: totals.writesLost,
    duplicates: sum([smtpDown.duplicates, replicas.duplicates, replicas.activationCodes?.movedTwice]),
    other: `${totals.writesAcknowledged} writes acknowledged, ${sum([smtpDown.emailsDelivered, replicas.emailsDelivered])} emails delivered`,
  });
}
const searchFaults = read('faults-search');
if (searchFaults) {
  rows.push({
    test: 'faults search',
    requests: searchFaults.requests.tried,
    serverErrors: serverErrorsBut503(searchFaults.requests.by_status) + searchFaults.requests.no_answer,
    faults: searchFaults.faults_injected.length,
    writesLost: searchFaults.writes.lost,
    duplicates: searchFaults.tests?.two_replicas?.runs_overlapping ?? 0,
    other: `${searchFaults.reindexes.completed} reindexes completed, ${searchFaults.reindexes.killed} killed`,
  });
}
if (rows.length > 0) {
  console.log(
    'reliability (5xx: other than the 503 of an outage; duplicates: emails, code moves, reindexes):',
  );
  console.log('| test | requests | 5xx | faults | writes lost | duplicates | |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.test} | ${row.requests} | ${row.serverErrors} | ${row.faults} | ${row.writesLost} | ${row.duplicates} | ${row.other} |`,
    );
  }
}
