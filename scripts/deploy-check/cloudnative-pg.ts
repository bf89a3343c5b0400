import Ajv, { type ValidateFunction } from 'ajv';
import { imagePinProblem } from './images';
import type { K8sObject } from './kubernetes';

export const CNPG_API_VERSION = 'postgresql.cnpg.io/v1';

/**
 * The CloudNativePG kinds the manifests use (k8s/components/database), as a hand-written subset
 * of the operator's CRD schemas (postgresql.cnpg.io/v1, CloudNativePG 1.26: no npm package ships
 * them, and the check runs offline). Types, enums and required fields follow the CRDs; unlike the
 * CRDs, every object of the subset refuses properties it does not list, so a misspelt field
 * fails here instead of being pruned by the API server. A field the CRD has and the subset lacks
 * is refused too: add it here, from the CRD reference (https://cloudnative-pg.io/documentation/).
 */
const quantity = { anyOf: [{ type: 'string', pattern: '^[0-9.]+([KMGTPE]i?|m)?$' }, { type: 'integer' }] };
const secretName = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1 } },
};
const secretKey = {
  type: 'object',
  required: ['name', 'key'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 } },
};
const resources = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requests: { type: 'object', additionalProperties: quantity },
    limits: { type: 'object', additionalProperties: quantity },
  },
};
const storage = {
  type: 'object',
  additionalProperties: false,
  properties: {
    size: { type: 'string', pattern: '^[0-9]+(Mi|Gi|Ti)$' },
    storageClass: { type: 'string' },
    resizeInUseVolumes: { type: 'boolean' },
  },
};
const metadata = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 50 },
  },
};
const clusterReference = secretName;
const monitoring = {
  type: 'object',
  additionalProperties: false,
  properties: { enablePodMonitor: { type: 'boolean' } },
};
/** A list of things the operator keeps `present` (or `absent`) by `name`, each with `properties`. */
const ensuredByName = (properties: object) => ({
  type: 'array',
  items: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1 },
      ensure: { enum: ['present', 'absent'] },
      ...properties,
    },
  },
});

const kindOf = (kind: string, spec: object) => ({
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: CNPG_API_VERSION },
    kind: { const: kind },
    metadata,
    spec,
  },
});

export const CNPG_SCHEMAS: Record<string, object> = {
  Cluster: kindOf('Cluster', {
    type: 'object',
    required: ['instances', 'storage'],
    additionalProperties: false,
    properties: {
      description: { type: 'string' },
      instances: { type: 'integer', minimum: 1 },
      imageName: { type: 'string', minLength: 1 },
      primaryUpdateStrategy: { enum: ['unsupervised', 'supervised'] },
      primaryUpdateMethod: { enum: ['switchover', 'restart'] },
      enableSuperuserAccess: { type: 'boolean' },
      superuserSecret: secretName,
      postgresql: {
        type: 'object',
        additionalProperties: false,
        properties: {
          parameters: { type: 'object', additionalProperties: { type: 'string' } },
          pg_hba: { type: 'array', items: { type: 'string' } },
          shared_preload_libraries: { type: 'array', items: { type: 'string' } },
        },
      },
      bootstrap: {
        type: 'object',
        additionalProperties: false,
        properties: {
          initdb: {
            type: 'object',
            additionalProperties: false,
            properties: {
              database: { type: 'string', minLength: 1 },
              owner: { type: 'string', minLength: 1 },
              secret: secretName,
              encoding: { type: 'string' },
              localeCollate: { type: 'string' },
              localeCType: { type: 'string' },
              dataChecksums: { type: 'boolean' },
              postInitApplicationSQL: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
      managed: {
        type: 'object',
        additionalProperties: false,
        properties: {
          roles: ensuredByName({
            login: { type: 'boolean' },
            superuser: { type: 'boolean' },
            createdb: { type: 'boolean' },
            createrole: { type: 'boolean' },
            inherit: { type: 'boolean' },
            replication: { type: 'boolean' },
            connectionLimit: { type: 'integer', minimum: -1 },
            inRoles: { type: 'array', items: { type: 'string' } },
            passwordSecret: secretName,
          }),
        },
      },
      storage,
      walStorage: storage,
      resources,
      affinity: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enablePodAntiAffinity: { type: 'boolean' },
          topologyKey: { type: 'string' },
          podAntiAffinityType: { enum: ['preferred', 'required'] },
          nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      monitoring,
      backup: {
        type: 'object',
        additionalProperties: false,
        properties: {
          retentionPolicy: { type: 'string', pattern: '^[1-9][0-9]*[dwm]$' },
          target: { enum: ['primary', 'prefer-standby'] },
          barmanObjectStore: {
            type: 'object',
            required: ['destinationPath'],
            additionalProperties: false,
            properties: {
              destinationPath: { type: 'string', pattern: '^(s3|gs|https?)://' },
              endpointURL: { type: 'string', pattern: '^https?://' },
              serverName: { type: 'string' },
              s3Credentials: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  accessKeyId: secretKey,
                  secretAccessKey: secretKey,
                  region: secretKey,
                  sessionToken: secretKey,
                  inheritFromIAMRole: { type: 'boolean' },
                },
              },
              wal: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  compression: { enum: ['bzip2', 'gzip', 'snappy', 'lz4', 'xz', 'zstd'] },
                  encryption: { enum: ['AES256', 'aws:kms'] },
                  maxParallel: { type: 'integer', minimum: 1 },
                },
              },
              data: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  compression: { enum: ['bzip2', 'gzip', 'snappy'] },
                  encryption: { enum: ['AES256', 'aws:kms'] },
                  jobs: { type: 'integer', minimum: 1 },
                },
              },
            },
          },
        },
      },
    },
  }),
  Pooler: kindOf('Pooler', {
    type: 'object',
    required: ['cluster', 'pgbouncer'],
    additionalProperties: false,
    properties: {
      cluster: clusterReference,
      instances: { type: 'integer', minimum: 0 },
      type: { enum: ['rw', 'ro', 'r'] },
      pgbouncer: {
        type: 'object',
        additionalProperties: false,
        properties: {
          poolMode: { enum: ['session', 'transaction'] },
          parameters: { type: 'object', additionalProperties: { type: 'string' } },
          paused: { type: 'boolean' },
        },
      },
      monitoring,
    },
  }),
  ScheduledBackup: kindOf('ScheduledBackup', {
    type: 'object',
    required: ['cluster', 'schedule'],
    additionalProperties: false,
    properties: {
      cluster: clusterReference,
      // Six fields, seconds first (the operator's cron, github.com/robfig/cron), or a descriptor.
      schedule: { type: 'string', pattern: '^(@\\w+|(\\S+\\s+){5}\\S+)$' },
      immediate: { type: 'boolean' },
      suspend: { type: 'boolean' },
      backupOwnerReference: { enum: ['none', 'self', 'cluster'] },
      method: { enum: ['barmanObjectStore', 'volumeSnapshot', 'plugin'] },
      target: { enum: ['primary', 'prefer-standby'] },
    },
  }),
  Database: kindOf('Database', {
    type: 'object',
    required: ['cluster', 'name', 'owner'],
    additionalProperties: false,
    properties: {
      cluster: clusterReference,
      name: { type: 'string', minLength: 1 },
      owner: { type: 'string', minLength: 1 },
      ensure: { enum: ['present', 'absent'] },
      databaseReclaimPolicy: { enum: ['retain', 'delete'] },
      encoding: { type: 'string' },
      extensions: ensuredByName({ version: { type: 'string' }, schema: { type: 'string' } }),
    },
  }),
};

let validators: Record<string, ValidateFunction> | undefined;

/** Schema problems of a postgresql.cnpg.io/v1 object; undefined for any other apiVersion. */
export function cnpgSchemaProblems(object: K8sObject): string[] | undefined {
  if (object.apiVersion !== CNPG_API_VERSION) return undefined;
  validators ??= Object.fromEntries(
    Object.entries(CNPG_SCHEMAS).map(([kind, schema]) => [
      kind,
      new Ajv({ allErrors: true, strict: false }).compile(schema),
    ]),
  );
  const validate = validators[String(object.kind)];
  if (!validate) return [`${CNPG_API_VERSION} ${String(object.kind)} is not a kind this check knows`];
  if (validate(object)) return [];
  return (validate.errors ?? []).map((error) => {
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
        : '';
    return `schema: ${error.instancePath || '/'} ${error.message ?? ''}${extra}`.trim();
  });
}

/** What the objects of a CloudNativePG cluster must agree on within one overlay. */
export function cnpgProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const ofKind = (kind: string) =>
    objects.filter((o) => o.apiVersion === CNPG_API_VERSION && o.kind === kind);
  const clusters = ofKind('Cluster');
  const clusterNames = new Set(clusters.map((c) => c.metadata?.name));
  for (const cluster of clusters) {
    const at = `Cluster/${cluster.metadata?.name}`;
    const spec = cluster.spec ?? {};
    if ((spec.instances ?? 0) < 3) problems.push(`${at}: needs 3 instances (a primary and two replicas)`);
    if (spec.imageName === undefined) problems.push(`${at}: names no imageName (one with pgvector)`);
    else {
      const pin = imagePinProblem(spec.imageName);
      if (pin) problems.push(`${at}: ${pin}`);
    }
    if (!spec.backup?.barmanObjectStore) problems.push(`${at}: has no backup to an object store`);
    if (!ofKind('ScheduledBackup').some((b) => b.spec?.cluster?.name === cluster.metadata?.name)) {
      problems.push(`${at}: no ScheduledBackup backs it up`);
    }
    const selectsCluster = (policy: K8sObject) =>
      policy.spec?.podSelector?.matchLabels?.['cnpg.io/cluster'] === cluster.metadata?.name;
    if (!objects.some((o) => o.kind === 'NetworkPolicy' && selectsCluster(o))) {
      problems.push(
        `${at}: no NetworkPolicy lets traffic reach its pods (the namespace denies all by default)`,
      );
    }
    const roles = new Set<string>([
      spec.bootstrap?.initdb?.owner,
      ...(spec.managed?.roles ?? []).map((role: K8sObject) => role.name),
    ]);
    for (const database of ofKind('Database').filter(
      (d) => d.spec?.cluster?.name === cluster.metadata?.name,
    )) {
      if (!roles.has(database.spec?.owner)) {
        problems.push(
          `Database/${database.metadata?.name}: owner ${database.spec?.owner} is neither the bootstrap owner nor a managed role of ${at}`,
        );
      }
    }
  }
  for (const kind of ['Pooler', 'ScheduledBackup', 'Database']) {
    for (const object of ofKind(kind)) {
      const name = object.spec?.cluster?.name;
      if (!clusterNames.has(name)) {
        problems.push(
          `${kind}/${object.metadata?.name}: refers to Cluster ${name}, which the overlay does not define`,
        );
      }
    }
  }
  return problems;
}
