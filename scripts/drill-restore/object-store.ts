// The drill's S3-compatible object store: s3rver, in this process, on a loopback port, keeping its
// objects in a folder of the drill. The backend's tests use the same package (a devDependency of
// apps/backend, images.e2e-spec.ts); the drill loads it from there rather than adding a dependency.
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The part of s3rver's API the drill uses. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string; configs: unknown[] }[];
}) => S3rverInstance;

/** s3rver's fixed credentials (it checks every request's signature against them). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface RunningObjectStore {
  endpointUrl: string;
  close(): Promise<void>;
}

export async function startObjectStore(
  root: string,
  directory: string,
  bucket: string,
): Promise<RunningObjectStore> {
  const S3rver = createRequire(join(root, 'apps', 'backend', 'package.json'))('s3rver') as S3rverClass;
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return { endpointUrl: `http://127.0.0.1:${port}`, close: () => server.close() };
}
