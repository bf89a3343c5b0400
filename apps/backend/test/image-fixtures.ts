import sharp from 'sharp';

/**
 * A photo-like image made in the test, as a sharp pipeline to encode (`.png()`, `.jpeg()`, …):
 * noise compresses badly, so file sizes are realistic.
 */
export const noise = (width: number, height: number): sharp.Sharp =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251)), {
    raw: { width, height, channels: 3 },
  });
