// The text of an uploaded file, by what it is: a PDF's text layer (unpdf, a
// serverless build of pdf.js, with each page's items laid back into lines and
// columns), the XML inside a .docx or .xlsx (unzipped with fflate, read
// minimally), CSV cells and plain text as they are. Columns are separated by
// a tab, so the field extractor sees tables the same way whatever the format.
// Images and the old binary Office formats have no text here: OCR runs only in
// a browser, so they wait for their text (needs_text).
import { unzipSync } from 'fflate';
import { extractTextItems, getDocumentProxy } from 'unpdf';
import { TEXT_REASONS } from './reasons.ts';

export { TEXT_REASONS };

/** Why a file yielded no text; `needs_text` asks a person for it, `failed` says it cannot be read. */
export class NoTextError extends Error {
  readonly outcome: 'needs_text' | 'failed';
  constructor(message: string, outcome: 'needs_text' | 'failed') {
    super(message);
    this.outcome = outcome;
  }
}

/** The most an Office part may inflate to: a zip bomb stops here, not in the Worker's memory. */
export const MAX_PART_BYTES = 20 * 1024 * 1024;
const MAX_PARTS_BYTES = 40 * 1024 * 1024;


export interface ExtractedText {
  text: string;
  pages: number;
}

export async function extractText(mimeType: string, bytes: Uint8Array): Promise<ExtractedText> {
  switch (mimeType) {
    case 'application/pdf':
      return pdfText(bytes);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return { text: docxText(bytes), pages: 1 };
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
      return { text: xlsxText(bytes), pages: 1 };
    case 'text/csv':
      return { text: csvText(decodeText(bytes)), pages: 1 };
    case 'text/plain':
      return { text: decodeText(bytes), pages: 1 };
    case 'image/jpeg':
    case 'image/png':
      throw new NoTextError(TEXT_REASONS.image, 'needs_text');
    default:
      throw new NoTextError(TEXT_REASONS.binaryOffice, 'needs_text');
  }
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

// ---- PDF -------------------------------------------------------------------

interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

async function pdfText(bytes: Uint8Array): Promise<ExtractedText> {
  let pages: Item[][];
  try {
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    pages = (await extractTextItems(pdf)).items as Item[][];
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') throw new NoTextError(TEXT_REASONS.encrypted, 'failed');
    throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  }
  const text = pages.map(pageLines).join('\n\n').trim();
  if (!text) throw new NoTextError(TEXT_REASONS.scanned, 'needs_text');
  return { text, pages: pages.length };
}

/** A page's items as lines, top to bottom; on a line, a wide gap is a column (a tab). */
function pageLines(items: Item[]): string {
  const rows: { y: number; size: number; items: Item[] }[] = [];
  for (const item of items) {
    if (!item.str.trim()) continue;
    const size = item.fontSize || 10;
    const row = rows.find((r) => Math.abs(r.y - item.y) <= Math.max(r.size, size) * 0.4);
    if (row) row.items.push(item);
    else rows.push({ y: item.y, size, items: [item] });
  }
  rows.sort((a, b) => b.y - a.y);
  return rows
    .map((row) => {
      const sorted = row.items.sort((a, b) => a.x - b.x);
      let line = '';
      let end = Number.NEGATIVE_INFINITY;
      for (const item of sorted) {
        const gap = item.x - end;
        if (line) line += gap > row.size * 1.2 ? '\t' : gap > row.size * 0.15 ? ' ' : '';
        line += item.str.trim();
        end = item.x + (item.width || item.str.length * row.size * 0.5);
      }
      return line;
    })
    .join('\n');
}

// ---- Office XML --------------------------------------------------------------

/** The named parts of an Office file, unpacked within the limits (a zip bomb is refused, not inflated). */
function unzipParts(bytes: Uint8Array, wanted: (name: string) => boolean): Record<string, string> {
  let declared = 0;
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        declared += file.originalSize;
        if (file.originalSize > MAX_PART_BYTES || declared > MAX_PARTS_BYTES) throw new NoTextError(TEXT_REASONS.tooBig, 'failed');
        return true;
      },
    });
  } catch (error) {
    if (error instanceof NoTextError) throw error;
    throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  }
  const decoder = new TextDecoder('utf-8');
  const out: Record<string, string> = {};
  for (const [name, data] of Object.entries(parts)) {
    // A part that inflated past what its header declared is a bomb in disguise.
    if (data.length > MAX_PART_BYTES) throw new NoTextError(TEXT_REASONS.tooBig, 'failed');
    out[name] = decoder.decode(data);
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity.toLowerCase()] ?? '';
  });
}

/** The text of a Word paragraph's runs: text, tabs and breaks, in order. */
function runText(xml: string): string {
  let text = '';
  for (const [, , value, tag] of xml.matchAll(/<w:t(\s[^>]*)?>([^<]*)<\/w:t>|<w:(tab|br|cr)\b[^>]*\/>/g)) {
    if (tag) text += tag === 'tab' ? '\t' : '\n';
    else text += decodeXml(value ?? '');
  }
  return text;
}

function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g)].map(([p]) => runText(p));
}

export function docxText(bytes: Uint8Array): string {
  const parts = unzipParts(bytes, (name) => name === 'word/document.xml');
  const xml = parts['word/document.xml'];
  // No body: not a Word document (or one whose part was cut short, as a zip whose sizes lie is).
  if (xml === undefined || !/<w:body\b/.test(xml)) throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  const body = xml.replace(/^[\s\S]*?<w:body>/, '');
  const lines: string[] = [];
  // Tables and paragraphs in document order: a table row is one line, its cells separated by tabs.
  for (const [block, table] of body.matchAll(/(<w:tbl>[\s\S]*?<\/w:tbl>)|<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g)) {
    if (table) {
      for (const [row] of block.matchAll(/<w:tr\b[\s\S]*?<\/w:tr>/g)) {
        const cells = [...row.matchAll(/<w:tc\b[\s\S]*?<\/w:tc>/g)].map(([cell]) => paragraphs(cell).join(' ').trim());
        lines.push(cells.join('\t'));
      }
    } else {
      lines.push(runText(block));
    }
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

export function xlsxText(bytes: Uint8Array): string {
  const parts = unzipParts(bytes, (name) => name === 'xl/sharedStrings.xml' || /^xl\/worksheets\/sheet\d+\.xml$/.test(name));
  const shared = [...(parts['xl/sharedStrings.xml'] ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g)].map(([, si]) =>
    [...si.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map(([, t]) => decodeXml(t)).join(''),
  );
  const sheets = Object.keys(parts)
    .filter((name) => name.startsWith('xl/worksheets/'))
    .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
  if (sheets.length === 0) throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  const lines: string[] = [];
  for (const sheet of sheets) {
    for (const [, row] of parts[sheet].matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells: string[] = [];
      for (const [, attributes, inner] of row.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const column = columnIndex(/\br="([A-Z]+)\d+"/.exec(attributes)?.[1]);
        while (column !== null && cells.length < column) cells.push('');
        const type = /\bt="([^"]+)"/.exec(attributes)?.[1];
        const value = /<v>([^<]*)<\/v>/.exec(inner ?? '')?.[1];
        if (type === 's') cells.push(shared[Number(value)] ?? '');
        else if (type === 'inlineStr') cells.push([...(inner ?? '').matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map(([, t]) => decodeXml(t)).join(''));
        else cells.push(decodeXml(value ?? ''));
      }
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      if (cells.length > 0) lines.push(cells.join('\t'));
    }
    lines.push('');
  }
  return lines.join('\n').trim();
}

/** 'A' → 0, 'AB' → 27. */
function columnIndex(letters: string | undefined): number | null {
  if (!letters) return null;
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

// ---- CSV ---------------------------------------------------------------------

/** CSV (comma or semicolon separated, quoted as RFC 4180) as lines of tab-separated cells. */
export function csvText(text: string): string {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  // Semicolons where a decimal comma is in use (European exports): as many as commas means semicolons.
  const semicolons = firstLine.match(/;/g)?.length ?? 0;
  const separator = semicolons > 0 && semicolons >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const lines: string[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      cells.push(cell.trim());
      cell = '';
    } else if (char === '\n') {
      cells.push(cell.trim());
      lines.push(cells.join('\t').replace(/\t+$/, ''));
      cells = [];
      cell = '';
    } else cell += char;
  }
  if (cell || cells.length > 0) {
    cells.push(cell.trim());
    lines.push(cells.join('\t').replace(/\t+$/, ''));
  }
  return lines.join('\n').trim();
}
