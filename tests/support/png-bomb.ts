// PNGs for the drawn-signature tests (issue 30, item 9), made here rather than
// stored: a decompression bomb is a PNG whose pixel data is rows of zeros,
// which deflate shrinks about a thousandfold. The rows are compressed one at
// a time, so making a 192 MB image's 190 KB file takes little memory.
import { Zlib } from 'fflate';
import { encodePng, pngChunk as chunk } from '../../app/features/quotes/pdf/signature-png.ts';

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * An RGBA PNG whose header says `declared` pixels and whose pixel data is
 * `rows` zero rows of `width` pixels (by default what the header says: an
 * honest bomb; fewer header pixels than rows: a lying one).
 */
export function zeroRowsPng(declared: { width: number; height: number }, pixels = declared): Uint8Array {
  const parts: Uint8Array[] = [];
  const zlib = new Zlib({ level: 9 }, (data) => parts.push(data));
  const row = new Uint8Array(pixels.width * 4 + 1);
  for (let y = 0; y < pixels.height; y++) zlib.push(row, y === pixels.height - 1);
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, declared.width);
  view.setUint32(4, declared.height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return concat([
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', concat(parts)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** A signature as the page's canvas draws one: 480 x 140 RGBA, a dark stroke across the middle. */
export function normalSignaturePng(): Uint8Array {
  const width = 480;
  const height = 140;
  const stride = width * 4 + 1;
  const rows = new Uint8Array(stride * height);
  for (let y = 60; y < 80; y++) for (let x = 40; x < 440; x++) rows.set([20, 20, 60, 255], y * stride + 1 + x * 4);
  return encodePng({ width, height, colorType: 6 }, rows);
}

export const toBase64 = (bytes: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
