import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/**
 * Redocly CLI's lint of an OpenAPI document, with the backend's rules (redocly.yaml: the
 * recommended ones); its JSON report. Used on both services' contracts.
 */
export async function lintOpenApi(document: unknown): Promise<RedoclyReport> {
  const directory = await mkdtemp(join(tmpdir(), 'rt-contract-'));
  try {
    const file = join(directory, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const result = await run(
      process.execPath,
      [cli, 'lint', file, '--config', join(__dirname, '..', 'redocly.yaml'), '--format', 'json'],
      {
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // Exit code 1 when there are errors: the report is still on stdout.
      if (!error.stdout) throw error;
      return { stdout: error.stdout };
    });
    return JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as RedoclyReport;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
