import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { noise } from './image-fixtures';
import { createTestApp, TestApp } from './test-app';

/**
 * Upload abuse (issue 15): polyglot files, and 50 uploads at once, half of them refused. Every
 * answer is a 201 or a 422, the stored files are exactly the accepted images, and what is served
 * never carries what was hidden in an accepted file.
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
    t = await createTestApp({ env: { IMAGE_DIR: imageDir } });
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
