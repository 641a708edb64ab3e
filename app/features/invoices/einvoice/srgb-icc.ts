// A compact sRGB ICC profile (version 2.1, display class, RGB to XYZ,
// matrix/TRC), built in code rather than vendored: the PDF/A output intent
// (decision 052) needs one, and the standard's numbers are all it holds.
// Colorants: the sRGB primaries (IEC 61966-2-1) adapted to D50 with the
// Bradford transform, as ICC profiles carry them; tone curve: the sRGB
// transfer function sampled at 1024 points. About 2.6 KB.

const D50 = [0.9642, 1.0, 0.8249];
const RED = [0.436066, 0.222488, 0.013916];
const GREEN = [0.385147, 0.716873, 0.097076];
const BLUE = [0.143066, 0.060608, 0.714096];
export const SRGB_DESCRIPTION = 'sRGB IEC61966-2.1';
const COPYRIGHT = 'No copyright, use freely';

function tag(signature: string, body: (data: DataView) => void, length: number): Uint8Array {
  const data = new DataView(new ArrayBuffer(length));
  for (let i = 0; i < 4; i++) data.setUint8(i, signature.charCodeAt(i));
  body(data);
  return new Uint8Array(data.buffer);
}

const s15Fixed16 = (value: number) => Math.round(value * 65536);

const xyz = (values: number[]) =>
  tag('XYZ ', (data) => values.forEach((value, i) => data.setInt32(8 + i * 4, s15Fixed16(value))), 20);

const ascii = (data: DataView, at: number, text: string) => {
  for (let i = 0; i < text.length; i++) data.setUint8(at + i, text.charCodeAt(i));
};

/** textDescriptionType (ICC.1:2001 6.5.17): ASCII, then empty Unicode and ScriptCode parts. */
const description = (text: string) =>
  tag(
    'desc',
    (data) => {
      data.setUint32(8, text.length + 1);
      ascii(data, 12, text);
    },
    12 + text.length + 1 + 4 + 4 + 2 + 1 + 67,
  );

const textType = (text: string) => tag('text', (data) => ascii(data, 8, text), 8 + text.length + 1);

/** The sRGB transfer function, 1024 samples as u16 (curveType). */
const curve = () => {
  const count = 1024;
  return tag(
    'curv',
    (data) => {
      data.setUint32(8, count);
      for (let i = 0; i < count; i++) {
        const v = i / (count - 1);
        const linear = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        data.setUint16(12 + i * 2, Math.round(linear * 65535));
      }
    },
    12 + count * 2,
  );
};

/** The profile's bytes; the same every time. */
export function srgbIccProfile(): Uint8Array<ArrayBuffer> {
  const trc = curve();
  // Tags sharing one data block (the three curves) point at the same offset, as ICC allows.
  const entries: [string, Uint8Array][] = [
    ['desc', description(SRGB_DESCRIPTION)],
    ['cprt', textType(COPYRIGHT)],
    ['wtpt', xyz(D50)],
    ['rXYZ', xyz(RED)],
    ['gXYZ', xyz(GREEN)],
    ['bXYZ', xyz(BLUE)],
    ['rTRC', trc],
    ['gTRC', trc],
    ['bTRC', trc],
  ];
  const tableEnd = 128 + 4 + entries.length * 12;
  const offsets = new Map<Uint8Array, number>();
  let end = tableEnd;
  for (const [, bytes] of entries) {
    if (offsets.has(bytes)) continue;
    offsets.set(bytes, end);
    end += (bytes.length + 3) & ~3;
  }
  const out = new Uint8Array(end);
  const data = new DataView(out.buffer);
  data.setUint32(0, end); // profile size
  data.setUint32(8, 0x02100000); // version 2.1
  ascii(data, 12, 'mntrRGB XYZ '); // class, colour space, PCS
  [2026, 1, 1, 0, 0, 0].forEach((value, i) => data.setUint16(24 + i * 2, value)); // creation date, fixed
  ascii(data, 36, 'acsp');
  data.setUint32(64, 0); // perceptual
  D50.forEach((value, i) => data.setInt32(68 + i * 4, s15Fixed16(value))); // PCS illuminant
  data.setUint32(128, entries.length);
  entries.forEach(([signature, bytes], i) => {
    const at = 132 + i * 12;
    ascii(data, at, signature);
    data.setUint32(at + 4, offsets.get(bytes)!);
    data.setUint32(at + 8, bytes.length);
  });
  for (const [bytes, offset] of offsets) out.set(bytes, offset);
  return out;
}
