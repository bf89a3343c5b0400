import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { imagePinProblem } from './images';

/* eslint-disable @typescript-eslint/no-explicit-any -- a compose file is untyped YAML */
type Service = Record<string, any>;

export const COMPOSE_FILE = 'docker/compose.yaml';

/**
 * The Compose Specification's JSON Schema (draft-07), as the dclint package ships it
 * (schemas/compose.schema.json). Its `$schema` names draft-07 by an https address Ajv does not
 * know under that spelling; Ajv's default dialect is draft-07, so it is dropped.
 */
export function composeSchema(): object {
  const packageJson = require.resolve('dclint/package.json');
  const schema = JSON.parse(
    readFileSync(join(dirname(packageJson), 'schemas', 'compose.schema.json'), 'utf8'),
  ) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** Validates docker/compose.yaml against the schema, then the stack's own rules. */
export function checkCompose(root: string, file = COMPOSE_FILE): string[] {
  const path = join(root, file);
  if (!existsSync(path)) return [`${file} is missing`];
  let document: Record<string, any>;
  try {
    document = parse(readFileSync(path, 'utf8'), { prettyErrors: true }) as Record<string, any>;
  } catch (error) {
    return [`${file}: ${(error as Error).message}`];
  }
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validateSchema = ajv.compile(composeSchema());
  const problems: string[] = [];
  if (!validateSchema(document)) {
    for (const error of validateSchema.errors ?? []) {
      const extra =
        error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
      problems.push(`${file}: schema: ${error.instancePath || '/'} ${error.message ?? ''}${extra}`);
    }
    return problems;
  }
  const services: Record<string, Service> = document.services ?? {};
  const folder = posix.dirname(file);
  for (const service of ['postgres', 'backend', 'search']) {
    if (!services[service]) problems.push(`${file}: service ${service} is missing`);
  }
  for (const [name, service] of Object.entries(services)) {
    const at = `${file}: service ${name}`;
    if (service.build) {
      const context = posix.join(folder, service.build.context ?? '.');
      const dockerfile = posix.join(context, service.build.dockerfile ?? 'Dockerfile');
      if (!existsSync(join(root, dockerfile)))
        problems.push(`${at}: builds ${dockerfile}, which does not exist`);
    } else {
      const pin = imagePinProblem(service.image);
      if (pin) problems.push(`${at}: ${pin}`);
    }
    const oneShot = service.restart === 'no';
    if (!oneShot && (!service.healthcheck || service.healthcheck.disable))
      problems.push(`${at}: has no healthcheck`);
    const dependsOn = service.depends_on ?? {};
    if (Array.isArray(dependsOn)) {
      problems.push(`${at}: depends_on must give a condition for each service (service_healthy ...)`);
    } else {
      for (const [target, condition] of Object.entries<Service>(dependsOn)) {
        if (!services[target]) problems.push(`${at}: depends on ${target}, which is not a service`);
        if (condition.condition === 'service_healthy' && !services[target]?.healthcheck) {
          problems.push(`${at}: waits for ${target} to be healthy, but ${target} has no healthcheck`);
        }
      }
    }
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
      if (
        typeof source === 'string' &&
        /^\.{1,2}\//.test(source) &&
        !existsSync(join(root, folder, source))
      ) {
        problems.push(`${at}: mounts ${source}, which does not exist`);
      }
    }
  }
  for (const service of ['backend', 'search']) {
    const environment = services[service]?.environment ?? {};
    const value = Array.isArray(environment)
      ? environment.find((entry: string) => entry.startsWith('DB_MIGRATE_ON_START='))?.split('=')[1]
      : environment.DB_MIGRATE_ON_START;
    if (services[service] && String(value) !== 'true') {
      problems.push(`${file}: service ${service} must migrate on start (DB_MIGRATE_ON_START: 'true')`);
    }
  }
  return problems;
}
