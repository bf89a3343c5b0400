import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import request from 'supertest';
import { signingPairOf, signPath } from '../src/images/imgproxy-signature';
import { noise } from './image-fixtures';
import { createTestApp, TestApp } from './test-app';

const KEY = 'aa'.repeat(32);
const SALT = 'bb'.repeat(32);
const PAIR = signingPairOf(KEY, SALT);
const MAX_BYTES = 10_485_760;

const png = (width: number, height: number) => noise(width, height).png().toBuffer();
const jpeg = (width: number, height: number) => noise(width, height).jpeg().toBuffer();
const webp = (width: number, height: number) => noise(width, height).webp().toBuffer();

/** A PNG chunk (length, type, data, CRC of type and data). */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid PNG of exactly `size` bytes: a small image padded with a text chunk before IEND. */
async function pngOfExactSize(size: number): Promise<Buffer> {
  const base = await png(64, 64);
  const iend = base.subarray(base.length - 12);
  const body = base.subarray(0, base.length - 12);
  const padding = size - base.length - 12;
  const text = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(padding - 8, 'a')]);
  const file = Buffer.concat([body, pngChunk('tEXt', text), iend]);
  expect(file.length).toBe(size);
  return file;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A black PNG of `width` × `height` 8-bit grey pixels, built by hand: IHDR, one IDAT holding the
 * rows (a filter byte, then the pixels) deflated by zlib, IEND. 1 × 40,000,000 is 77 KB.
 */
function blackGreyPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc((width + 1) * height))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 33 bytes of header claiming 100,000 × 100,000 pixels: a decompression bomb's announcement. */
function pngDeclaringHugeDimensions(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const decodedWidth = async (data: Buffer) => (await sharp(data).metadata()).width;

describe('images on local storage', () => {
  let t: TestApp;
  let imageDir: string;
  let agent: ReturnType<typeof request.agent>;

  beforeAll(async () => {
    imageDir = await mkdtemp(join(tmpdir(), 'rt-images-'));
    t = await createTestApp({
      env: { IMGPROXY_KEY: KEY, IMGPROXY_SALT: SALT, IMAGE_DIR: imageDir, IMAGE_MAX_PIXELS: '40000000' },
    });
    agent = (await t.signedInUser()).agent;
  });
  afterAll(async () => {
    await t.close();
    await rm(imageDir, { recursive: true, force: true });
  });

  const upload = (file: Buffer, filename: string, contentType?: string) =>
    agent
      .post('/api/images')
      .set('X-Viewing-As', 'traveller')
      .attach('image', file, contentType ? { filename, contentType } : filename);
  const storedFiles = async () => (await readdir(imageDir, { recursive: true })).length;
  const imageRows = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM images'))[0].n);
  const metric = async (name: string) =>
    Number(new RegExp(`^${name} (\\d+)$`, 'm').exec((await t.http.get('/metrics').expect(200)).text)?.[1]);
  const uploadsDecoded = () => metric('image_uploads_decoded_total');

  const expectRefused = async (file: Buffer, filename: string, message: string, contentType?: string) => {
    const [filesBefore, rowsBefore] = [await storedFiles(), await imageRows()];
    const res = await upload(file, filename, contentType).expect(422);
    expect(res.body).toEqual({ message, errors: { image: [message] } });
    expect(await storedFiles()).toBe(filesBefore);
    expect(await imageRows()).toBe(rowsBefore);
  };

  it.each([
    ['PNG', () => png(320, 240), 'photo.png', 'png'],
    ['JPEG', () => jpeg(320, 240), 'photo.jpg', 'jpg'],
    ['JPEG named .jpeg', () => jpeg(320, 240), 'photo.jpeg', 'jpg'],
    ['WebP', () => webp(320, 240), 'photo.webp', 'webp'],
  ])(
    'accepts a %s: 201 with id, signed url and variants; the row records it',
    async (_kind, make, name, ext) => {
      const res = await upload(await make(), name).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: expect.stringMatching(new RegExp(`^/img/[A-Za-z0-9_-]{43}/plain/${res.body.id}\\.${ext}$`)),
        variants: {
          thumb: expect.any(String),
          medium: res.body.url,
          large: res.body.url,
          full: res.body.url,
        },
      });
      expect(res.body.variants.thumb).toMatch(
        new RegExp(`^/img/[A-Za-z0-9_-]{43}/rs:fit:200:0/plain/${res.body.id}\\.${ext}$`),
      );
      const [row] = await t.dataSource.query(
        'SELECT format, width, height, byte_size FROM images WHERE id = $1',
        [res.body.id],
      );
      expect(row).toMatchObject({ width: 320, height: 240, format: ext === 'jpg' ? 'jpeg' : ext });
      expect(row.byte_size).toBeGreaterThan(0);
    },
  );

  it('judges by content: a text file renamed .png, a GIF renamed .png, HTML sent as image/jpeg are refused', async () => {
    const typeMessage = 'The image must be a file of type: jpg, jpeg, png, webp.';
    await expectRefused(Buffer.from('just some text, not an image\n'), 'notes.png', typeMessage);
    const gif = await noise(40, 40).gif().toBuffer();
    await expectRefused(gif, 'animation.png', typeMessage);
    await expectRefused(Buffer.from('<html><body>hi</body></html>'), 'page.jpg', typeMessage, 'image/jpeg');
  });

  it('refuses a truncated JPEG and a file declaring huge dimensions, and stores nothing', async () => {
    const whole = await jpeg(800, 600);
    await expectRefused(
      whole.subarray(0, Math.floor(whole.length / 2)),
      'cut.jpg',
      'The image is corrupt or truncated.',
    );
    await expectRefused(pngDeclaringHugeDimensions(), 'bomb.png', 'The image has too many pixels.');
  });

  it('refuses a 1 × 40,000,000 PNG of 77 KB, under the pixel limit, from its header within a second, never decoding it', async () => {
    const tall = blackGreyPng(1, 40_000_000);
    expect(tall.length).toBeLessThan(80_000);
    const decodedBefore = await uploadsDecoded();
    const started = performance.now();
    const res = await upload(tall, 'tall.png').expect(422);
    expect(performance.now() - started).toBeLessThan(1000);
    const message = 'The image may not be taller than 12000 pixels.';
    expect(res.body).toEqual({ message, errors: { image: [message] }, reason: 'image_too_tall' });
    expect(await uploadsDecoded()).toBe(decodedBefore);
  });

  it('refuses a width or an aspect ratio past its limit before decoding, and decodes one at the limits', async () => {
    const decodedBefore = await uploadsDecoded();
    const wide = await upload(blackGreyPng(12_001, 1), 'wide.png').expect(422);
    expect(wide.body).toMatchObject({
      errors: { image: ['The image may not be wider than 12000 pixels.'] },
      reason: 'image_too_wide',
    });
    const elongated = await upload(blackGreyPng(30, 601), 'strip.png').expect(422);
    expect(elongated.body).toMatchObject({
      errors: { image: ["The image's long side may not be more than 20 times its short side."] },
      reason: 'image_aspect_ratio',
    });
    expect(await uploadsDecoded()).toBe(decodedBefore);
    await upload(blackGreyPng(30, 600), 'twenty-to-one.png').expect(201);
    await upload(blackGreyPng(12_000, 600), 'widest.png').expect(201);
    expect(await uploadsDecoded()).toBe(decodedBefore + 2);
  });

  it('accepts exactly 10,485,760 bytes and refuses 10,485,761', async () => {
    await upload(await pngOfExactSize(MAX_BYTES), 'max.png').expect(201);
    await expectRefused(
      await pngOfExactSize(MAX_BYTES + 1),
      'over.png',
      'The image may not be greater than 10240 kilobytes.',
    );
  });

  it('refuses a request without the image field, or with the file in another field', async () => {
    const none = await agent
      .post('/api/images')
      .set('X-Viewing-As', 'traveller')
      .field('note', 'x')
      .expect(422);
    expect(none.body.errors).toEqual({ image: ['The image field is required.'] });
    const elsewhere = await agent
      .post('/api/images')
      .set('X-Viewing-As', 'traveller')
      .attach('photo', await png(10, 10), 'a.png')
      .expect(422);
    expect(elsewhere.body.errors).toEqual({ image: ['Send exactly one file, in the field "image".'] });
    const json = await agent
      .post('/api/images')
      .set('X-Viewing-As', 'traveller')
      .send({ image: 'x' })
      .expect(422);
    expect(json.body.errors).toEqual({ image: ['The image field is required.'] });
  });

  it('needs a signed-in user with a hat they hold', async () => {
    await t.http
      .post('/api/images')
      .attach('image', await png(10, 10), 'a.png')
      .expect(401);
    await agent
      .post('/api/images')
      .attach('image', await png(10, 10), 'a.png')
      .expect(422);
  });

  it('turns the original upright from its EXIF orientation and strips its metadata', async () => {
    const rotated = await noise(300, 100)
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'home address', Copyright: 'someone' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(rotated).metadata()).exif).toBeDefined();
    const res = await upload(rotated, 'portrait.jpg').expect(201);
    const served = await t.http.get(res.body.url).buffer(true).expect(200);
    const metadata = await sharp(served.body as Buffer).metadata();
    expect([metadata.width, metadata.height]).toEqual([100, 300]);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
  });

  it('serves every variant at its width, never enlarged: a 500 px and a 2,500 px image', async () => {
    const small = (await upload(await jpeg(500, 250), 'small.jpg').expect(201)).body;
    expect(small.variants.medium).toBe(small.url);
    const large = (await upload(await jpeg(2500, 1000), 'large.jpg').expect(201)).body;
    const widthsOf = async (variants: Record<string, string>) => {
      const widths: Record<string, number | undefined> = {};
      for (const [name, url] of Object.entries(variants)) {
        const res = await t.http.get(url).buffer(true).expect(200);
        expect(res.headers['content-type']).toBe('image/jpeg');
        widths[name] = await decodedWidth(res.body as Buffer);
      }
      return widths;
    };
    expect(await widthsOf(small.variants)).toEqual({ thumb: 200, medium: 500, large: 500, full: 500 });
    expect(await widthsOf(large.variants)).toEqual({ thumb: 200, medium: 600, large: 1200, full: 1920 });
    // Served from storage afterwards: each variant is stored once beside the original.
    const stored = await readdir(join(imageDir, 'variants'));
    expect(stored.filter((name) => name.startsWith(large.id)).sort()).toEqual(
      [200, 600, 1200, 1920].map((w) => `${large.id}-w${w}.jpg`).sort(),
    );
  });

  it('answers with long-lived caching and revalidates with the ETag (304)', async () => {
    const image = (await upload(await png(400, 300), 'cache.png').expect(201)).body;
    const first = await t.http.get(image.variants.thumb).expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f-]{36}-w200"$/);
    const again = await t.http.get(image.variants.thumb).set('If-None-Match', etag).expect(304);
    expect(again.text ?? '').toBe('');
    await t.http.get(image.variants.thumb).set('If-None-Match', '"other"').expect(200);
  });

  it('refuses a tampered signature or options with 403, and unissued options or unknown images with 404', async () => {
    const image = (await upload(await png(800, 600), 'tamper.png').expect(201)).body;
    const thumb: string = image.variants.thumb;
    const signature = thumb.split('/')[2];
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const badSignature = await t.http.get(thumb.replace(signature, flipped)).expect(403);
    expect(badSignature.body).toEqual({ message: 'The image signature is not valid.', error: 'forbidden' });
    await t.http.get(thumb.replace('rs:fit:200:0', 'rs:fit:600:0')).expect(403);
    await t.http.get(thumb.replace('.png', '.jpg')).expect(403);

    const signed = (path: string) => `/img/${signPath(PAIR, path)}${path}`;
    const notFound = await t.http.get(signed(`/rs:fit:300:0/plain/${image.id}.png`)).expect(404);
    expect(notFound.body.error).toBe('not_found');
    await t.http.get(signed(`/rs:fill:200:200:0/plain/${image.id}.png`)).expect(404);
    await t.http.get(signed(`/plain/${image.id}.jpg`)).expect(404);
    await t.http.get(signed('/plain/00000000-0000-4000-8000-000000000000.png')).expect(404);
    await t.http.get(signed(`/plain/${image.id}.png`)).expect(200);
    await t.http.get('/img/nothing-here').expect(404);
  });

  it('resizes a variant once for 16 concurrent first requests', async () => {
    const image = (await upload(await jpeg(1600, 1200), 'burst.jpg').expect(201)).body;
    const variantsMade = () => metric('image_variants_made_total');
    const before = await variantsMade();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => t.http.get(image.variants.large).buffer(true)),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(16).fill(200));
    const bodies = new Set(answers.map((res) => (res.body as Buffer).toString('base64')));
    expect(bodies.size).toBe(1);
    expect(await variantsMade()).toBe(before + 1);
  });

  it('PUT /user takes a profile_picture_id: unknown → 422, known → its variants, null detaches', async () => {
    const { user, agent: owner } = await t.signedInUser();
    const profile = (picture: string | null) => ({
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      preferred_language: user.preferredLanguage,
      profile_picture_id: picture,
    });
    const unknown = await owner
      .put('/api/user')
      .send(profile('00000000-0000-4000-8000-000000000000'))
      .expect(422);
    expect(unknown.body.errors).toEqual({
      profile_picture_id: ['The selected profile picture id is invalid.'],
    });
    await owner.put('/api/user').send(profile('not-a-uuid')).expect(422);
    const { first_name: _omitted, ...withoutPicture } = profile(null);
    await owner
      .put('/api/user')
      .send({ ...withoutPicture, first_name: 'A', profile_picture_id: undefined })
      .expect(422);

    const image = (await upload(await jpeg(900, 900), 'me.jpg').expect(201)).body;
    const attached = await owner.put('/api/user').send(profile(image.id)).expect(200);
    expect(attached.body.profile_picture_id).toBe(image.id);
    expect(attached.body.profile_picture).toEqual(image.variants);
    expect((await owner.get('/api/user').expect(200)).body.profile_picture).toEqual(image.variants);
    const detached = await owner.put('/api/user').send(profile(null)).expect(200);
    expect(detached.body).toMatchObject({ profile_picture_id: null, profile_picture: null });
  });
});

describe('images on an S3-compatible store', () => {
  let t: TestApp;
  let s3: S3rver;
  let s3Dir: string;
  let client: S3Client;
  const BUCKET = 'road-trip-images';

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'rt-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = (await s3.run()) as AddressInfo;
    const endpoint = `http://127.0.0.1:${port}`;
    client = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    t = await createTestApp({
      env: {
        IMGPROXY_KEY: KEY,
        IMGPROXY_SALT: SALT,
        IMAGE_STORAGE: 's3',
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    client?.destroy();
    await s3?.close();
    await rm(s3Dir, { recursive: true, force: true });
  });

  const keys = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? [])
      .map((o) => o.Key)
      .sort();

  it('stores the original and its variants in the bucket, and nothing after a refusal', async () => {
    const { agent } = await t.signedInUser();
    const upload = (file: Buffer, name: string) =>
      agent.post('/api/images').set('X-Viewing-As', 'traveller').attach('image', file, name);
    const image = (await upload(await webp(1000, 500), 'lake.webp').expect(201)).body;
    expect(await keys()).toEqual([`${image.id}.webp`]);

    const variant = await t.http.get(image.variants.medium).buffer(true).expect(200);
    expect(variant.headers['content-type']).toBe('image/webp');
    expect(await decodedWidth(variant.body as Buffer)).toBe(600);
    expect(await keys()).toEqual([`${image.id}.webp`, `variants/${image.id}-w600.webp`]);
    await t.http.get(image.variants.medium).expect(200);

    await upload(Buffer.from('not an image'), 'fake.webp').expect(422);
    expect(await keys()).toEqual([`${image.id}.webp`, `variants/${image.id}-w600.webp`]);
  });
});
