// A drawn signature, bounded (issue 30, item 9). A PNG's header declares its
// size, and a decoder allocates and inflates whatever it declares: a 190 KB
// file of zero rows declaring a huge image inflated to 196 MB on every PDF
// render. So a signature is accepted only as a small PNG of bounded size
// (the same bounds as the database's private.signature_png_bytes), its pixel
// data is inflated with a cap of exactly what the header allows, and what is
// stored and drawn is a fresh PNG of three chunks (IHDR, IDAT, IEND) made
// from those pixels: no text, colour profile or other chunk of the original
// survives.
import { Unzlib, zlibSync } from 'fflate';

/** Bounds a signature pad needs (the page's canvas is 480 x 140). */
export const SIGNATURE_LIMITS = { maxBytes: 100_000, maxWidth: 1200, maxHeight: 400 } as const;

const MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bytes per pixel of each allowed colour type at 8 bits: grey, RGB, grey + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
/** Input given to the inflater at a time: bounds what one step can produce (~1 MB at most). */
const STEP = 1024;

export interface SignatureHeader {
  width: number;
  height: number;
  colorType: number;
}

const u32 = (bytes: Uint8Array, at: number) =>
  ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
const type = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);

/** The header of a PNG within the bounds, or null (not a PNG, too large, or a kind this does not draw). */
export function signatureHeader(png: Uint8Array): SignatureHeader | null {
  if (png.length < 33 || png.length > SIGNATURE_LIMITS.maxBytes) return null;
  if (!MAGIC.every((byte, i) => png[i] === byte)) return null;
  if (u32(png, 8) !== 13 || type(png, 12) !== 'IHDR') return null;
  const width = u32(png, 16);
  const height = u32(png, 20);
  const [depth, colorType, compression, filter, interlace] = png.subarray(24, 29);
  if (width < 1 || width > SIGNATURE_LIMITS.maxWidth || height < 1 || height > SIGNATURE_LIMITS.maxHeight) return null;
  if (depth !== 8 || !(colorType in CHANNELS) || compression !== 0 || filter !== 0 || interlace !== 0) return null;
  return { width, height, colorType };
}

/** The compressed pixel data (all IDAT chunks, in order), or null when the chunks run past the end. */
function idatData(png: Uint8Array): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let at = 8;
  while (at + 12 <= png.length) {
    const length = u32(png, at);
    const name = type(png, at + 4);
    if (at + 12 + length > png.length) return null;
    if (name === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    if (name === 'IEND') break;
    at += 12 + length;
  }
  if (parts.length === 0) return null;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Inflates zlib data, refusing (null) as soon as it would give more than `expected` bytes, or fewer. */
function boundedInflate(data: Uint8Array, expected: number): Uint8Array | null {
  const out = new Uint8Array(expected);
  let length = 0;
  let over = false;
  const inflater = new Unzlib((chunk) => {
    if (over) return;
    if (length + chunk.length > expected) {
      over = true;
      return;
    }
    out.set(chunk, length);
    length += chunk.length;
  });
  try {
    for (let at = 0; at < data.length && !over; at += STEP) {
      inflater.push(data.subarray(at, at + STEP), at + STEP >= data.length);
    }
  } catch {
    return null;
  }
  return over || length !== expected ? null : out;
}

let crcTable: Uint32Array | null = null;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data and CRC. Exported for the tests that make hostile PNGs. */
export function pngChunk(name: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = name.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A PNG of the given header and raw (filtered) scanlines. Exported for tests that need a PNG. */
export function encodePng(header: SignatureHeader, scanlines: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, header.width);
  view.setUint32(4, header.height);
  ihdr.set([8, header.colorType, 0, 0, 0], 8);
  const parts = [Uint8Array.from(MAGIC), pngChunk('IHDR', ihdr), pngChunk('IDAT', zlibSync(scanlines, { level: 9 })), pngChunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * The signature re-encoded as a bounded PNG, or null when it is not one this
 * accepts: the header out of bounds, pixel data that inflates to more or less
 * than the header says (a bomb is cut off at the first byte too many), or a
 * row with an unknown filter.
 */
export function boundedSignaturePng(png: Uint8Array): Uint8Array | null {
  const header = signatureHeader(png);
  if (!header) return null;
  const stride = header.width * CHANNELS[header.colorType] + 1;
  const data = idatData(png);
  if (!data) return null;
  const scanlines = boundedInflate(data, stride * header.height);
  if (!scanlines) return null;
  for (let row = 0; row < header.height; row++) if (scanlines[row * stride] > 4) return null;
  const out = encodePng(header, scanlines);
  return out.length <= SIGNATURE_LIMITS.maxBytes ? out : null;
}
