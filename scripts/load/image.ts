import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The part of sharp's API used here. */
interface Sharp {
  jpeg(options: { quality: number }): Sharp;
  toBuffer(): Promise<Buffer>;
}
type SharpFactory = (
  input: Buffer,
  options: { raw: { width: number; height: number; channels: 3 } },
) => Sharp;

/**
 * A photo-like JPEG (gradients, waves and seeded noise), so that an upload, its variants and
 * their fetches weigh what a photo does (about 0.8 MB for 3000 × 2000, 0.2 MB at 1920 wide).
 * It is encoded with the backend's own sharp (the root of the workspace has no image library).
 */
export async function photoJpeg(root: string, width: number, height: number, seed: number): Promise<Buffer> {
  const sharp = createRequire(join(root, 'apps', 'backend', 'package.json'))('sharp') as SharpFactory;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed >>> 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const noise = (state >>> 16) % 8;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 255) / width + noise + 40 * Math.sin(y / 50 + seed)) & 255;
      pixels[i + 1] = ((y * 255) / height + noise + 30 * Math.cos(x / 70)) & 255;
      pixels[i + 2] = (((x + y) * 128) / (width + height) + noise * 2 + seed * 30) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}
