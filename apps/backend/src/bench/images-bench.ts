import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NestExpressApplication } from '@nestjs/platform-express';
import sharp from 'sharp';
import { resizeVariant } from '../images/image-processing';
import { VARIANT_WIDTHS } from '../images/image-urls';
import { createBenchDatabase, percentile, startBackendInProcess } from './bench-kit';

/**
 * `pnpm bench:images`: the backend in this process on a fresh database of the PostgreSQL server
 * of BENCH_DATABASE_URL, images on a temporary local directory.
 * 1. upload of a 12-megapixel JPEG (4000 × 3000), beside sharp normalising it alone;
 * 2. per variant: the first (cold) fetch, beside sharp doing the same resize directly (the
 *    limit), then warm fetches (p50, p95);
 * 3. 16 concurrent cold requests for one variant of a second image: how many resizes ran
 *    (`image_variants_made_total`) and the wall time.
 */
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WARM_REQUESTS = Number(process.env.BENCH_WARM_REQUESTS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (values: number[]) => percentile(values, 50);
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A photo-like 12 MP JPEG: smooth gradients with noise, so it compresses like a photo. */
async function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const noise = state % 24;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 255) / width + noise) & 255;
      pixels[i + 1] = ((y * 255) / height + noise) & 255;
      pixels[i + 2] = (((x + y) * 128) / (width + height) + noise * 2) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

async function main(): Promise<void> {
  const database = await createBenchDatabase(SERVER_URL, `rt_bench_images_${Date.now().toString(36)}`);
  const imageDir = await mkdtemp(join(tmpdir(), 'rt-bench-images-'));
  let app: NestExpressApplication | undefined;
  try {
    const backend = await startBackendInProcess(database.url, { IMAGE_DIR: imageDir });
    app = backend.app;
    const { config, base, token } = backend;
    const variantsMade = async () =>
      Number(
        /^image_variants_made_total (\d+)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? 0,
      );

    console.log(
      `images bench: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}`,
    );
    console.log(
      `IMAGE_RESIZE_CONCURRENCY=${config.IMAGE_RESIZE_CONCURRENCY}, sharp threads ${sharp.concurrency()}, ${ROUNDS} rounds\n`,
    );

    const upload = async (file: Buffer) => {
      const form = new FormData();
      form.append('image', new Blob([file], { type: 'image/jpeg' }), 'photo.jpg');
      const res = await fetch(`${base}/api/images`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'X-Viewing-As': 'super-admin' },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { id: string; url: string; variants: Record<string, string> };
    };
    const fetchBytes = async (path: string) => {
      const res = await fetch(`${base}${path}`);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    };

    for (let round = 1; round <= ROUNDS; round++) {
      const file = await photo(4000, 3000, round);
      const direct = await timed(() =>
        sharp(file).rotate().jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true }),
      );
      const uploaded = await timed(() => upload(file));
      console.log(
        `round ${round}: upload of a 12 MP JPEG (${(file.length / 1e6).toFixed(1)} MB): ${ms(uploaded.ms)} over HTTP; sharp normalising it alone ${ms(direct.ms)} (${(uploaded.ms / direct.ms).toFixed(2)}×)`,
      );
      const original = await fetchBytes(uploaded.value.url);
      for (const [name, width] of Object.entries(VARIANT_WIDTHS)) {
        const path = uploaded.value.variants[name];
        const cold = await timed(() => fetchBytes(path));
        const limit = await timed(() => resizeVariant(original, 'jpeg', width));
        const warm: number[] = [];
        for (let i = 0; i < WARM_REQUESTS; i++) warm.push((await timed(() => fetchBytes(path))).ms);
        console.log(
          `  ${name.padEnd(6)} ${String(width).padStart(4)} px: cold ${ms(cold.ms)}, sharp alone ${ms(limit.ms)} (${(cold.ms / limit.ms).toFixed(2)}×); warm p50 ${ms(median(warm))}, p95 ${ms(percentile(warm, 95))} (${WARM_REQUESTS} requests)`,
        );
      }
      const burst = await upload(await photo(4000, 3000, 100 + round));
      const before = await variantsMade();
      const wall = await timed(() =>
        Promise.all(Array.from({ length: 16 }, () => fetchBytes(burst.variants.large))),
      );
      const made = (await variantsMade()) - before;
      const identical = new Set(wall.value.map((bytes) => bytes.toString('base64'))).size === 1;
      console.log(
        `  16 concurrent cold requests for one variant (1200 px): ${made} resize(s), ${ms(wall.ms)} wall, identical answers: ${identical}\n`,
      );
    }
  } finally {
    await app?.close();
    await database.drop();
    await rm(imageDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
