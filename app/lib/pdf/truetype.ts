// Reading and subsetting a TrueType font, enough to embed it in a PDF as a
// simple TrueType font (decision 052): the tables, the Unicode cmap, the
// metrics, and a subset holding only the glyphs of given characters. pdf-lib
// embeds custom fonts only through @pdf-lib/fontkit, which is not installed
// (and had import trouble under Vite/Workers, decision 026); this is plain
// byte work, so it runs in workerd and Node alike. Relative imports only.

export interface TrueType {
  bytes: Uint8Array;
  tables: Map<string, { offset: number; length: number }>;
  unitsPerEm: number;
  numGlyphs: number;
  /** Unicode code point → glyph index (the (3,1) or (0,x) format 4 cmap). */
  glyphOf: (codePoint: number) => number;
  /** Advance width of a glyph, in font units. */
  advance: (glyph: number) => number;
  bbox: [number, number, number, number];
  ascender: number;
  descender: number;
  capHeight: number;
  italicAngle: number;
  fixedPitch: boolean;
  /** The PostScript name (name ID 6), e.g. 'DejaVuSans-Bold'. */
  postscriptName: string;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function parseTrueType(bytes: Uint8Array): TrueType {
  const data = view(bytes);
  const version = data.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565) throw new Error('Not a TrueType font');
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0, count = data.getUint16(4); i < count; i++) {
    const record = 12 + i * 16;
    const tag = String.fromCharCode(...bytes.subarray(record, record + 4));
    tables.set(tag, { offset: data.getUint32(record + 8), length: data.getUint32(record + 12) });
  }
  const table = (tag: string) => {
    const found = tables.get(tag);
    if (!found) throw new Error(`The font has no ${tag} table`);
    return found.offset;
  };
  const head = table('head');
  const hhea = table('hhea');
  const hmtx = table('hmtx');
  const os2 = tables.get('OS/2')?.offset;
  const post = table('post');
  const numberOfHMetrics = data.getUint16(hhea + 34);
  const numGlyphs = data.getUint16(table('maxp') + 4);

  return {
    bytes,
    tables,
    unitsPerEm: data.getUint16(head + 18),
    numGlyphs,
    glyphOf: cmapLookup(data, table('cmap')),
    advance: (glyph) => data.getUint16(hmtx + 4 * Math.min(glyph, numberOfHMetrics - 1)),
    bbox: [data.getInt16(head + 36), data.getInt16(head + 38), data.getInt16(head + 40), data.getInt16(head + 42)],
    ascender: data.getInt16(hhea + 4),
    descender: data.getInt16(hhea + 6),
    capHeight: os2 !== undefined && data.getUint16(os2) >= 2 ? data.getInt16(os2 + 88) : data.getInt16(hhea + 4),
    italicAngle: data.getInt32(post + 4) / 65536,
    fixedPitch: data.getUint32(post + 12) !== 0,
    postscriptName: postscriptName(data, bytes, table('name')),
  };
}

/** The format 4 subtable of the Unicode BMP cmap, as a lookup (0 for a character the font lacks). */
function cmapLookup(data: DataView, cmap: number): (codePoint: number) => number {
  let subtable = -1;
  for (let i = 0, count = data.getUint16(cmap + 2); i < count; i++) {
    const platform = data.getUint16(cmap + 4 + i * 8);
    const encoding = data.getUint16(cmap + 6 + i * 8);
    const offset = cmap + data.getUint32(cmap + 8 + i * 8);
    if (data.getUint16(offset) !== 4) continue;
    if ((platform === 3 && encoding === 1) || (platform === 0 && subtable < 0)) subtable = offset;
  }
  if (subtable < 0) throw new Error('The font has no Unicode cmap');
  const segments = data.getUint16(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const ranges = deltas + segments * 2;
  return (codePoint) => {
    if (codePoint > 0xffff) return 0;
    for (let s = 0; s < segments; s++) {
      if (data.getUint16(ends + s * 2) < codePoint) continue;
      const start = data.getUint16(starts + s * 2);
      if (start > codePoint) return 0;
      const delta = data.getUint16(deltas + s * 2);
      const rangeOffset = data.getUint16(ranges + s * 2);
      if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
      const glyph = data.getUint16(ranges + s * 2 + rangeOffset + 2 * (codePoint - start));
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}

function postscriptName(data: DataView, bytes: Uint8Array, name: number): string {
  const strings = name + data.getUint16(name + 4);
  for (let i = 0, count = data.getUint16(name + 2); i < count; i++) {
    const record = name + 6 + i * 12;
    if (data.getUint16(record + 6) !== 6) continue;
    const platform = data.getUint16(record);
    const start = strings + data.getUint16(record + 10);
    const raw = bytes.subarray(start, start + data.getUint16(record + 8));
    // Windows names are UTF-16BE; Macintosh ones single bytes (ASCII for a PostScript name).
    const chars = platform === 3 ? Array.from({ length: raw.length / 2 }, (_, k) => (raw[2 * k] << 8) | raw[2 * k + 1]) : Array.from(raw);
    return String.fromCharCode(...chars).replace(/[^!-~]|[[\](){}<>/%#]/g, '');
  }
  return 'Font';
}

// Tables a PDF renderer reads from an embedded TrueType program (ISO 32000
// 9.9: glyf, head, hhea, hmtx, loca, maxp, cvt, fpgm, prep; cmap for a
// non-symbolic font, PDF/A-3 6.2.11.6) and those that carry the font's
// copyright and licence (name) or its vertical metrics (OS/2, post).
// Layout tables (GSUB, GPOS, kern...) are left out: PDF text is laid out already.
const KEPT = ['OS/2', 'cmap', 'cvt ', 'fpgm', 'gasp', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'name', 'post', 'prep'];

/**
 * A TrueType font holding only the glyphs of `codePoints` (and .notdef, and
 * the parts of composite glyphs), renumbered, with a (3,1) format 4 cmap for
 * exactly those characters. Deterministic: the same font and characters give
 * the same bytes.
 */
export function subsetTrueType(font: TrueType, codePoints: Iterable<number>): Uint8Array<ArrayBuffer> {
  const data = view(font.bytes);
  const at = (tag: string) => font.tables.get(tag)!.offset;
  const longLoca = data.getInt16(at('head') + 50) === 1;
  const glyphRange = (glyph: number): [number, number] => {
    const loca = at('loca');
    const [start, end] = longLoca
      ? [data.getUint32(loca + glyph * 4), data.getUint32(loca + glyph * 4 + 4)]
      : [data.getUint16(loca + glyph * 2) * 2, data.getUint16(loca + glyph * 2 + 2) * 2];
    return [at('glyf') + start, at('glyf') + end];
  };
  // Composite glyphs: each component's flags and glyph index, by offset.
  const components = (glyph: number): { indexAt: number; glyph: number }[] => {
    const [start, end] = glyphRange(glyph);
    if (end - start < 10 || data.getInt16(start) >= 0) return [];
    const found = [];
    let p = start + 10;
    for (;;) {
      const flags = data.getUint16(p);
      found.push({ indexAt: p + 2 - start, glyph: data.getUint16(p + 2) });
      p += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
      if (!(flags & 0x0020)) return found;
    }
  };

  const mapped = new Map<number, number>();
  for (const codePoint of codePoints) {
    const glyph = font.glyphOf(codePoint);
    if (glyph !== 0) mapped.set(codePoint, glyph);
  }
  const keep = new Set<number>([0, ...mapped.values()]);
  for (const pending = [...keep]; pending.length > 0; ) {
    for (const part of components(pending.pop()!)) {
      if (part.glyph < font.numGlyphs && !keep.has(part.glyph)) {
        keep.add(part.glyph);
        pending.push(part.glyph);
      }
    }
  }
  const order = [...keep].sort((a, b) => a - b);
  const renumbered = new Map(order.map((glyph, index) => [glyph, index]));

  const glyf: Uint8Array[] = [];
  const loca = new DataView(new ArrayBuffer((order.length + 1) * 4));
  const hmtx = new DataView(new ArrayBuffer(order.length * 4));
  let offset = 0;
  order.forEach((glyph, index) => {
    const [start, end] = glyphRange(glyph);
    const copy = font.bytes.slice(start, end);
    const copyView = view(copy);
    for (const part of components(glyph)) copyView.setUint16(part.indexAt, renumbered.get(part.glyph) ?? 0);
    const padded = new Uint8Array((copy.length + 3) & ~3);
    padded.set(copy);
    glyf.push(padded);
    loca.setUint32(index * 4, offset);
    offset += padded.length;
    hmtx.setUint16(index * 4, font.advance(glyph));
    hmtx.setInt16(index * 4 + 2, copy.length >= 10 ? copyView.getInt16(2) : 0); // lsb = xMin
  });
  loca.setUint32(order.length * 4, offset);

  const copyTable = (tag: string) => font.bytes.slice(at(tag), at(tag) + font.tables.get(tag)!.length);
  const head = copyTable('head');
  view(head).setUint32(8, 0); // checkSumAdjustment, set below
  view(head).setInt16(50, 1); // long loca
  const hhea = copyTable('hhea');
  view(hhea).setUint16(34, order.length);
  const maxp = copyTable('maxp');
  view(maxp).setUint16(4, order.length);
  // post format 3: no glyph names (the cmap names the characters).
  const post = copyTable('post').slice(0, 32);
  view(post).setUint32(0, 0x00030000);

  const tables = new Map<string, Uint8Array>([
    ['cmap', unicodeCmap([...mapped].map(([codePoint, glyph]) => [codePoint, renumbered.get(glyph)!]))],
    ['glyf', concat(glyf)],
    ['head', head],
    ['hhea', hhea],
    ['hmtx', new Uint8Array(hmtx.buffer)],
    ['loca', new Uint8Array(loca.buffer)],
    ['maxp', maxp],
    ['post', post],
  ]);
  for (const tag of KEPT) if (!tables.has(tag) && font.tables.has(tag)) tables.set(tag, copyTable(tag));
  return writeFont(tables);
}

/** A cmap with one (3,1) format 4 subtable: a segment per run of characters whose glyphs follow each other. */
function unicodeCmap(pairs: [number, number][]): Uint8Array {
  const sorted = pairs.filter(([codePoint]) => codePoint < 0xffff).sort((a, b) => a[0] - b[0]);
  const segments: { start: number; end: number; delta: number }[] = [];
  for (const [codePoint, glyph] of sorted) {
    const last = segments.at(-1);
    if (last && last.end === codePoint - 1 && last.delta === glyph - codePoint) last.end = codePoint;
    else segments.push({ start: codePoint, end: codePoint, delta: glyph - codePoint });
  }
  segments.push({ start: 0xffff, end: 0xffff, delta: 1 });
  const count = segments.length;
  const length = 16 + count * 8;
  const table = new DataView(new ArrayBuffer(12 + length));
  table.setUint16(0, 0); // version
  table.setUint16(2, 1); // one subtable
  table.setUint16(4, 3); // Windows
  table.setUint16(6, 1); // Unicode BMP
  table.setUint32(8, 12);
  const sub = 12;
  const entrySelector = Math.floor(Math.log2(count));
  table.setUint16(sub, 4);
  table.setUint16(sub + 2, length);
  table.setUint16(sub + 4, 0);
  table.setUint16(sub + 6, count * 2);
  table.setUint16(sub + 8, 2 * 2 ** entrySelector);
  table.setUint16(sub + 10, entrySelector);
  table.setUint16(sub + 12, count * 2 - 2 * 2 ** entrySelector);
  segments.forEach((segment, i) => {
    table.setUint16(sub + 14 + i * 2, segment.end);
    table.setUint16(sub + 16 + count * 2 + i * 2, segment.start);
    table.setUint16(sub + 16 + count * 4 + i * 2, segment.delta & 0xffff);
    table.setUint16(sub + 16 + count * 6 + i * 2, 0);
  });
  return new Uint8Array(table.buffer);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function checksum(bytes: Uint8Array): number {
  const padded = new Uint8Array((bytes.length + 3) & ~3);
  padded.set(bytes);
  const data = view(padded);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + data.getUint32(i)) >>> 0;
  return sum;
}

/** The sfnt file: offset table, table records sorted by tag, tables 4-byte aligned, head's checkSumAdjustment set. */
function writeFont(tables: Map<string, Uint8Array>): Uint8Array<ArrayBuffer> {
  const tags = [...tables.keys()].sort();
  const count = tags.length;
  let offset = 12 + count * 16;
  const placed = tags.map((tag) => {
    const bytes = tables.get(tag)!;
    const entry = { tag, bytes, offset };
    offset += (bytes.length + 3) & ~3;
    return entry;
  });
  const out = new Uint8Array(offset);
  const data = view(out);
  const entrySelector = Math.floor(Math.log2(count));
  data.setUint32(0, 0x00010000);
  data.setUint16(4, count);
  data.setUint16(6, 16 * 2 ** entrySelector);
  data.setUint16(8, entrySelector);
  data.setUint16(10, count * 16 - 16 * 2 ** entrySelector);
  placed.forEach((entry, i) => {
    const record = 12 + i * 16;
    for (let k = 0; k < 4; k++) data.setUint8(record + k, entry.tag.charCodeAt(k));
    data.setUint32(record + 4, checksum(entry.bytes));
    data.setUint32(record + 8, entry.offset);
    data.setUint32(record + 12, entry.bytes.length);
    out.set(entry.bytes, entry.offset);
  });
  const head = placed.find((entry) => entry.tag === 'head')!;
  data.setUint32(head.offset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
