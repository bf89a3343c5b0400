import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { TEST_PASSWORD } from './factories';
import { noise } from './image-fixtures';
import { createTestApp, TestApp } from './test-app';

/**
 * Upload abuse: polyglot files, and 50 uploads at once, half of them refused. Every
 * answer is a 201 or a 422, the stored files are exactly the accepted images, and what is served
 * never carries what was hidden in an accepted file. Then the cost of uploads bounded (D-41):
 * large uploads decoded two at a time, the rest waiting or refused with 503, while a sign-in
 * still answers at once.
 */

const PHP_PAYLOAD = "<?php system($_GET['c']); ?>";
const SCRIPT_PAYLOAD = '<script>alert(document.cookie)</script>';

/** A JPEG with a COM segment holding a script after its SOI marker, and PHP after its EOI marker. */
async function jpegPolyglot(): Promise<Buffer> {
  const jpeg = await noise(120, 80).jpeg().toBuffer();
  const comment = Buffer.from(SCRIPT_PAYLOAD, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([
    jpeg.subarray(0, 2),
    segment,
    comment,
    jpeg.subarray(2),
    Buffer.from(PHP_PAYLOAD, 'latin1'),
  ]);
}

describe('upload abuse', () => {
  let t: TestApp;
  let imageDir: string;
  let agent: ReturnType<typeof request.agent>;

  beforeAll(async () => {
    imageDir = await mkdtemp(join(tmpdir(), 'rt-upload-abuse-'));
    // Room for the 50 at once to wait their turn (the bound itself is tested below).
    t = await createTestApp({ env: { IMAGE_DIR: imageDir, IMAGE_QUEUE_LIMIT: '64' } });
    agent = (await t.signedInUser()).agent;
  });
  afterAll(async () => {
    await t.close();
    await rm(imageDir, { recursive: true, force: true });
  });

  const upload = (file: Buffer, name: string, contentType = 'application/octet-stream') =>
    agent
      .post('/api/images')
      .set('X-Viewing-As', 'traveller')
      .attach('image', file, { filename: name, contentType });
  const storedOriginals = async () =>
    (await readdir(imageDir)).filter((name) => !name.startsWith('variants'));

  it('accepts an image that hides a script and PHP, and serves it without them', async () => {
    const polyglot = await jpegPolyglot();
    expect(polyglot.includes(SCRIPT_PAYLOAD)).toBe(true);
    expect(polyglot.includes(PHP_PAYLOAD)).toBe(true);
    const res = await upload(polyglot, 'innocent.php.jpg', 'image/jpeg').expect(201);
    for (const url of [res.body.url, res.body.variants.thumb]) {
      const served = await t.http.get(url).buffer(true).expect(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      const bytes = (served.body as Buffer).toString('latin1');
      expect(bytes).not.toContain('<script>');
      expect(bytes).not.toContain('<?php');
    }
  });

  it('refuses HTML that carries an image after it, whatever the name and declared type', async () => {
    const png = await noise(32, 32).png().toBuffer();
    const htmlFirst = Buffer.concat([Buffer.from(`<html><body>${SCRIPT_PAYLOAD}</body></html>\n`), png]);
    const before = await storedOriginals();
    const res = await upload(htmlFirst, 'photo.png', 'image/png').expect(422);
    expect(Object.keys(res.body.errors)).toEqual(['image']);
    expect(await storedOriginals()).toEqual(before);
  });

  it('answers 50 parallel uploads, half of them refused, with 201 or 422 only; storage holds exactly the accepted', async () => {
    const rowsBefore = Number((await t.dataSource.query('SELECT count(*) AS n FROM images'))[0].n);
    const filesBefore = (await storedOriginals()).length;
    const valid = await noise(200, 150).webp().toBuffer();
    const whole = await noise(300, 200).jpeg().toBuffer();
    const refusedKinds = [
      Buffer.from('plain text pretending to be an image'),
      whole.subarray(0, Math.floor(whole.length / 3)),
      await noise(20, 20).gif().toBuffer(),
    ];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? upload(valid, `ok-${i}.webp`)
          : upload(refusedKinds[i % refusedKinds.length], `bad-${i}.png`),
      ),
    );
    expect(answers.filter((res, i) => i % 2 === 0).map((res) => res.status)).toEqual(Array(25).fill(201));
    expect(answers.filter((res, i) => i % 2 === 1).map((res) => res.status)).toEqual(Array(25).fill(422));
    const accepted = answers.filter((res) => res.status === 201).map((res) => `${res.body.id}.webp`);
    expect(new Set(accepted).size).toBe(25);
    const rowsAfter = Number((await t.dataSource.query('SELECT count(*) AS n FROM images'))[0].n);
    expect(rowsAfter - rowsBefore).toBe(25);
    const files = await storedOriginals();
    expect(files.length - filesBefore).toBe(25);
    for (const name of accepted) expect(files).toContain(name);
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('uploads under load', () => {
  let t: TestApp;
  let imageDir: string;

  beforeAll(async () => {
    imageDir = await mkdtemp(join(tmpdir(), 'rt-upload-load-'));
    t = await createTestApp({
      env: { IMAGE_DIR: imageDir, IMAGE_RESIZE_CONCURRENCY: '2', IMAGE_QUEUE_LIMIT: '4' },
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(imageDir, { recursive: true, force: true });
  });

  const metric = async (name: string) =>
    Number(new RegExp(`^${name} (\\d+)$`, 'm').exec((await t.http.get('/metrics').expect(200)).text)?.[1]);
  const until = async (condition: () => Promise<boolean>) => {
    while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('decodes six large uploads two at a time, refuses a seventh with 503 and Retry-After, and signs a user in within 2 s meanwhile', async () => {
    // 16 megapixels of WebP, 40 KB: re-encoding it takes a second or more of CPU, under every limit.
    const large = await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#5a7d9a' } })
      .webp({ effort: 0 })
      .toBuffer();
    const uploader = await t.signedInUser();
    const upload = (file: Buffer) =>
      uploader.agent.post('/api/images').set('X-Viewing-As', 'traveller').attach('image', file, 'large.webp');
    const decodedBefore = await metric('image_uploads_decoded_total');

    const uploads = Array.from({ length: 6 }, () => upload(large).then((res) => res));
    // Two decoding, four waiting: the bound is full.
    await until(async () => (await metric('image_decodes_waiting')) === 4);
    expect(await metric('image_uploads_decoded_total')).toBe(decodedBefore + 2);

    const busy = await upload(await noise(40, 30).png().toBuffer()).expect(503);
    expect(busy.body).toEqual({
      message: 'Too many images are being processed; try again shortly.',
      error: 'service_unavailable',
    });
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const user = await t.makeUser();
    const started = performance.now();
    await t.http
      .post('/api/login')
      .send({ email: user.email, password: TEST_PASSWORD, device_name: 'x' })
      .expect(200);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await metric('image_decodes_waiting')).toBeGreaterThan(0);

    expect((await Promise.all(uploads)).map((res) => res.status)).toEqual(Array(6).fill(201));
  }, 60_000);
});
