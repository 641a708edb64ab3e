// The text of an uploaded file, by what it is: a PDF's text layer (unpdf, a
// serverless build of pdf.js, with each page's items laid back into lines and
// columns), the XML inside a .docx or .xlsx (unzipped with fflate, read in one
// pass), CSV cells and plain text as they are. Columns are separated by a tab,
// so the field extractor sees tables the same way whatever the format. Images
// and the old binary Office formats have no text here: OCR runs only in a
// browser, so they wait for their text (needs_text). Every reader spends from
// the file's Budget (budget.ts): a file that needs more work than that is
// 'too complex to read'.
import { unzipSync } from 'fflate';
import { getDocumentProxy } from 'unpdf';
import { Budget, LIMITS, NoTextError, TextLines, TooComplexError } from './budget.ts';
import { decodeXml, sharedStrings, sheetLines, wordText } from './office-xml.ts';
import { pageLines, textItems } from './pdf-lines.ts';
import { TEXT_REASONS } from './reasons.ts';

export { Budget, decodeXml, NoTextError, TEXT_REASONS, TooComplexError };
/** The wall time one file's reading may take (its budget's clock). */
export const LIMITS_MS = LIMITS.ms;

/** The most an Office part may inflate to: a zip bomb stops here, not in the Worker's memory. */
export const MAX_PART_BYTES = 20 * 1024 * 1024;
const MAX_PARTS_BYTES = 40 * 1024 * 1024;

export interface ExtractedText {
  text: string;
  pages: number;
}

export async function extractText(mimeType: string, bytes: Uint8Array, budget: Budget = new Budget()): Promise<ExtractedText> {
  switch (mimeType) {
    case 'application/pdf':
      return pdfText(bytes, budget);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return { text: docxText(bytes, budget), pages: 1 };
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
      return { text: xlsxText(bytes, budget), pages: 1 };
    case 'text/csv':
      return { text: csvText(capText(decodeText(bytes))), pages: 1 };
    case 'text/plain':
      return { text: capText(decodeText(bytes)), pages: 1 };
    case 'image/jpeg':
    case 'image/png':
      throw new NoTextError(TEXT_REASONS.image, 'needs_text');
    default:
      throw new NoTextError(TEXT_REASONS.binaryOffice, 'needs_text');
  }
}

/**
 * The file's text within its budget, or TooComplexError once `deadlineMs` has
 * passed first (the budget's checks cannot interrupt pdf.js's own work; this
 * stops waiting for it, and the budget stops it at its next page).
 */
export async function extractTextWithin(mimeType: string, bytes: Uint8Array, deadlineMs: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TooComplexError()), deadlineMs);
  });
  try {
    return (await Promise.race([extractText(mimeType, bytes, new Budget(LIMITS.steps, Math.min(LIMITS.ms, deadlineMs))), late])).text;
  } finally {
    clearTimeout(timer);
  }
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Text and CSV files are at most 10 MB; what is kept of them is as much as of any file. */
const capText = (text: string) => (text.length > LIMITS.textChars ? text.slice(0, LIMITS.textChars) : text);

// ---- PDF -------------------------------------------------------------------

/**
 * The pages' text items (as unpdf's extractTextItems gives them), read page by
 * page so the budget's clock is looked at between pages, and at most
 * LIMITS.pages pages.
 */
async function pdfText(bytes: Uint8Array, budget: Budget): Promise<ExtractedText> {
  const lines = new TextLines();
  let pages = 0;
  try {
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    pages = pdf.numPages;
    for (let number = 1; number <= Math.min(pages, LIMITS.pages) && !lines.full; number += 1) {
      budget.checkClock();
      const content = await (await pdf.getPage(number)).getTextContent();
      budget.checkClock();
      const items = textItems(content.items);
      budget.spend(items.length);
      if (number > 1) lines.push('');
      lines.push(pageLines(items, budget));
    }
  } catch (error) {
    if (error instanceof NoTextError) throw error;
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') throw new NoTextError(TEXT_REASONS.encrypted, 'failed');
    throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  }
  const text = lines.lines.join('\n').trim();
  if (!text) throw new NoTextError(TEXT_REASONS.scanned, 'needs_text');
  return { text, pages };
}

// ---- Office XML --------------------------------------------------------------

/** The named parts of an Office file, unpacked within the limits (a zip bomb is refused, not inflated). */
function unzipParts(bytes: Uint8Array, wanted: (name: string) => boolean, budget: Budget): Record<string, string> {
  let declared = 0;
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, {
      filter: (file) => {
        budget.spend();
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

export function docxText(bytes: Uint8Array, budget: Budget = new Budget()): string {
  const xml = unzipParts(bytes, (name) => name === 'word/document.xml', budget)['word/document.xml'];
  if (xml === undefined) throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  return wordText(xml, budget);
}

const SHEET = /^xl\/worksheets\/sheet\d+\.xml$/;

export function xlsxText(bytes: Uint8Array, budget: Budget = new Budget()): string {
  const parts = unzipParts(bytes, (name) => name === 'xl/sharedStrings.xml' || SHEET.test(name), budget);
  const shared = sharedStrings(parts['xl/sharedStrings.xml'] ?? '', budget);
  const sheets = Object.keys(parts)
    .filter((name) => name.startsWith('xl/worksheets/'))
    .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
  if (sheets.length === 0) throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  const lines = new TextLines();
  for (const sheet of sheets) {
    if (lines.full) break;
    sheetLines(parts[sheet], shared, budget, lines);
  }
  return lines.lines.join('\n').trim();
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
      lines.push(rowLine(cells));
      cells = [];
      cell = '';
    } else cell += char;
  }
  if (cell || cells.length > 0) {
    cells.push(cell.trim());
    lines.push(rowLine(cells));
  }
  return lines.join('\n').trim();
}

/** A row's cells, tab-separated, without its empty trailing cells (dropped one by one: a regex over the tabs backtracks). */
function rowLine(cells: string[]): string {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === '') end -= 1;
  return cells.slice(0, end).join('\t');
}
