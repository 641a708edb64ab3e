// Small logos for tests (decision 045): a real PNG and a JPEG header that
// pdf-lib embeds (it reads the frame header, it does not decode the pixels).
import { encodePng } from '../../app/features/quotes/pdf/signature-png.ts';

/** An opaque RGB PNG of the given size. */
export function logoPng(width = 40, height = 20): Uint8Array {
  const row = 1 + width * 3;
  const pixels = new Uint8Array(row * height);
  for (let y = 0; y < height; y++) pixels.fill(0x40, y * row + 1, (y + 1) * row);
  return encodePng({ width, height, colorType: 2 }, pixels);
}

/** A baseline JPEG's markers: SOI, APP0 (JFIF), SOF0 with the size, EOI. */
export function logoJpeg(width = 40, height = 20): Uint8Array {
  return Uint8Array.from([
    0xff, 0xd8,
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
    0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03,
    0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    0xff, 0xd9,
  ]);
}

/** A PNG whose header declares a huge image (the pixels are never there). */
export function hugeHeaderPng(): Uint8Array {
  const png = logoPng(2, 2).slice();
  const view = new DataView(png.buffer);
  view.setUint32(16, 20_000);
  view.setUint32(20, 20_000);
  return png;
}
