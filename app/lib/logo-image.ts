// A seller's logo, bounded (decision 045): a PNG or a JPEG of at most 512 KB
// and 1024 x 1024 pixels, recognised by its bytes, never by its name or the
// type the browser claims. The same check runs before a stored logo is
// embedded in a PDF: pdf-lib decodes a PNG's pixels, and a header bounds what
// that allocates.

export const LOGO_LIMITS = { maxBytes: 512 * 1024, maxWidth: 1024, maxHeight: 1024 } as const;

export interface LogoImage {
  kind: 'png' | 'jpeg';
  width: number;
  height: number;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** The logo's kind and size, or why it is refused. */
export function inspectLogo(bytes: Uint8Array): LogoImage | { error: string } {
  if (bytes.length === 0) return { error: 'Choose a PNG or JPEG file' };
  if (bytes.length > LOGO_LIMITS.maxBytes) return { error: 'The logo is too large (at most 512 KB)' };
  const image = readHeader(bytes);
  if (!image) return { error: 'The logo must be a PNG or JPEG image' };
  if (image.width < 1 || image.height < 1 || image.width > LOGO_LIMITS.maxWidth || image.height > LOGO_LIMITS.maxHeight) {
    return { error: 'The logo is too large (at most 1024 x 1024 pixels)' };
  }
  return image;
}

function readHeader(bytes: Uint8Array): LogoImage | null {
  if (bytes.length >= 33 && PNG_MAGIC.every((value, index) => bytes[index] === value)) {
    // The IHDR chunk comes first: length 13, type, width, height, bit depth, colour type.
    if (u32(bytes, 8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
    if (![1, 2, 4, 8, 16].includes(bytes[24]) || ![0, 2, 3, 4, 6].includes(bytes[25])) return null;
    return { kind: 'png', width: u32(bytes, 16), height: u32(bytes, 20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    // Walk the segments to the frame header (SOFn), which holds the size.
    let at = 2;
    for (let steps = 0; steps < 1000 && at + 9 < bytes.length; steps++) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1];
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { kind: 'jpeg', height: u16(bytes, at + 5), width: u16(bytes, at + 7) };
      if (marker === 0xd9 || marker === 0xda) return null;
      at += 2 + u16(bytes, at + 2);
    }
  }
  return null;
}
