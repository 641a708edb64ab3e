// The text of a .docx's document.xml and an .xlsx's shared strings and sheets,
// read in ONE forward pass over the XML: a small tokenizer finds each tag
// with indexOf and never looks back, so the work grows with the file's length
// and nothing else (issue 30: the lazy regexes it replaces went quadratic on
// 64,000 unclosed <w:p>). Every tag is a step of the file's Budget, and the
// text kept is capped (TextLines); what is read matches what the regexes read
// on well-formed files (tests/unit/document-extraction.test.ts, the corpus).
import { LIMITS, NoTextError, TextLines, type Budget } from './budget.ts';
import { TEXT_REASONS } from './reasons.ts';

interface Tag {
  /** The qualified name, e.g. `w:p`. */
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** What follows the name inside the tag (attributes), without a closing `/`. */
  attributes: string;
  /** Where `<` is, and just after `>`. */
  start: number;
  end: number;
}

const isNameEnd = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x2f || code === 0x3e;

/**
 * Calls `onTag` for each tag from `from` on, in document order, until it
 * returns false or the XML ends. Comments, processing instructions, CDATA and
 * declarations are skipped whole. A tag without its `>` ends the scan.
 */
export function scanTags(xml: string, from: number, budget: Budget, onTag: (tag: Tag) => boolean | void): void {
  let at = xml.indexOf('<', from);
  while (at !== -1) {
    budget.spend();
    let end: number;
    if (xml.startsWith('<!--', at)) end = endOf(xml, '-->', at + 4);
    else if (xml.startsWith('<![CDATA[', at)) end = endOf(xml, ']]>', at + 9);
    else if (xml.startsWith('<?', at)) end = endOf(xml, '?>', at + 2);
    else {
      const gt = xml.indexOf('>', at + 1);
      if (gt === -1) return;
      const closing = xml.charCodeAt(at + 1) === 0x2f;
      const nameStart = closing ? at + 2 : at + 1;
      let nameEnd = nameStart;
      while (nameEnd < gt && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd += 1;
      const selfClosing = !closing && xml.charCodeAt(gt - 1) === 0x2f;
      const tag: Tag = {
        name: xml.slice(nameStart, nameEnd),
        closing,
        selfClosing,
        attributes: xml.slice(nameEnd, selfClosing ? gt - 1 : gt),
        start: at,
        end: gt + 1,
      };
      // `<!DOCTYPE …>` and the like are declarations, not elements.
      if (xml.charCodeAt(at + 1) !== 0x21 && onTag(tag) === false) return;
      end = gt + 1;
    }
    if (end === -1) return;
    at = xml.indexOf('<', end);
  }
}

function endOf(xml: string, marker: string, from: number): number {
  const found = xml.indexOf(marker, from);
  return found === -1 ? -1 : found + marker.length;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five entities and numeric references; a reference to no character is dropped. */
export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,8}|#\d{1,8}|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity.toLowerCase()] ?? '';
    const code = entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * A Word body as lines: each paragraph a line (its runs' text, tabs and
 * breaks), each table row a line of tab-separated cells (a cell's paragraphs
 * joined by a space). A table inside a cell adds its paragraphs to that cell.
 */
export function wordText(xml: string, budget: Budget): string {
  const body = /<w:body\b/.exec(xml);
  // No body: not a Word document (or one whose part was cut short, as a zip whose sizes lie is).
  if (!body) throw new NoTextError(TEXT_REASONS.corrupt, 'failed');
  const out = new TextLines();
  let tables = 0;
  let row: string[] | null = null;
  let cell: string[] | null = null;
  let paragraphs = 0;
  let paragraph = '';
  let textFrom = -1;
  const endParagraph = (text: string) => {
    if (cell) {
      if (cell.length < LIMITS.cellsPerRow) cell.push(text);
    } else if (tables === 0) out.push(text);
  };
  scanTags(xml, body.index, budget, (tag) => {
    const textStart = textFrom;
    textFrom = -1;
    switch (tag.name) {
      case 'w:t':
        if (!tag.closing && !tag.selfClosing) textFrom = tag.end;
        // Only a run's text written directly between <w:t> and </w:t> is text.
        else if (tag.closing && textStart !== -1 && paragraphs > 0 && paragraph.length < LIMITS.textChars) paragraph += decodeXml(xml.slice(textStart, tag.start));
        break;
      case 'w:tab':
      case 'w:br':
      case 'w:cr':
        if (tag.selfClosing && paragraphs > 0) paragraph += tag.name === 'w:tab' ? '\t' : '\n';
        break;
      case 'w:p':
        if (tag.selfClosing) {
          if (paragraphs === 0) endParagraph('');
        } else if (!tag.closing) {
          if (paragraphs === 0) paragraph = '';
          paragraphs += 1;
        } else if (paragraphs > 0) {
          paragraphs -= 1;
          if (paragraphs === 0) endParagraph(paragraph);
        }
        break;
      case 'w:tbl':
        if (tag.selfClosing) break;
        tables = Math.max(0, tables + (tag.closing ? -1 : 1));
        if (tables === 0) row = cell = null;
        break;
      case 'w:tr':
        if (tables !== 1 || tag.selfClosing) break;
        if (!tag.closing) row = [];
        else if (row) {
          out.push(row.join('\t'));
          row = null;
        }
        break;
      case 'w:tc':
        if (tables !== 1 || tag.selfClosing || !row) break;
        if (!tag.closing) cell = [];
        else if (cell) {
          if (row.length < LIMITS.cellsPerRow) row.push(cell.join(' ').trim());
          cell = null;
        }
        break;
    }
    return !out.full;
  });
  return out.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** The shared strings of a workbook, in order (a string's runs joined); past the text limit, the rest are empty. */
export function sharedStrings(xml: string, budget: Budget): string[] {
  const strings: string[] = [];
  let chars = 0;
  let current: string | null = null;
  let textFrom = -1;
  scanTags(xml, 0, budget, (tag) => {
    const textStart = textFrom;
    textFrom = -1;
    if (tag.name === 'si' && !tag.selfClosing) {
      if (!tag.closing) current = '';
      else if (current !== null) {
        chars += current.length;
        strings.push(chars > LIMITS.textChars ? '' : current);
        current = null;
      }
    } else if (tag.name === 't' && current !== null) {
      if (!tag.closing && !tag.selfClosing) textFrom = tag.end;
      else if (tag.closing && textStart !== -1 && current.length < LIMITS.textChars) current += decodeXml(xml.slice(textStart, tag.start));
    }
  });
  return strings;
}

/** A worksheet's rows as lines of tab-separated cells, each cell in its column (`r="C4"`), empty trailing cells dropped. */
export function sheetLines(xml: string, shared: string[], budget: Budget, out: TextLines): void {
  let row: string[] | null = null;
  let cell: { attributes: string; value: string | undefined; inline: string } | null = null;
  let textFrom = -1;
  const addCell = (attributes: string, value: string | undefined, inline: string) => {
    if (!row) return;
    const letters = /\br="([A-Z]+)\d+"/.exec(attributes)?.[1];
    // A cell past the row's limit (or a column reference past Excel's XFD) is left out, not padded to.
    if (letters && letters.length > 3) return;
    const column = columnIndex(letters);
    if ((column !== null && column >= LIMITS.cellsPerRow) || row.length >= LIMITS.cellsPerRow) return;
    budget.spend(1 + Math.max(0, (column ?? 0) - row.length));
    while (column !== null && row.length < column) row.push('');
    const type = /\bt="([^"]+)"/.exec(attributes)?.[1];
    if (type === 's') row.push(shared[Number(value)] ?? '');
    else if (type === 'inlineStr') row.push(inline);
    else row.push(decodeXml(value ?? ''));
  };
  scanTags(xml, 0, budget, (tag) => {
    const textStart = textFrom;
    textFrom = -1;
    switch (tag.name) {
      case 'row':
        if (tag.selfClosing) break;
        if (!tag.closing) row = [];
        else if (row) {
          while (row.length > 0 && row[row.length - 1] === '') row.pop();
          if (row.length > 0) out.push(row.join('\t'));
          row = null;
        }
        break;
      case 'c':
        if (!row) break;
        if (tag.selfClosing) addCell(tag.attributes, undefined, '');
        else if (!tag.closing) cell = { attributes: tag.attributes, value: undefined, inline: '' };
        else if (cell) {
          addCell(cell.attributes, cell.value, cell.inline);
          cell = null;
        }
        break;
      case 'v':
        if (!cell) break;
        // The first value of a cell, written directly between <v> and </v>.
        if (!tag.closing && !tag.selfClosing && tag.attributes === '') textFrom = tag.end;
        else if (tag.closing && textStart !== -1 && cell.value === undefined) cell.value = xml.slice(textStart, tag.start);
        break;
      case 't':
        if (!cell) break;
        if (!tag.closing && !tag.selfClosing) textFrom = tag.end;
        else if (tag.closing && textStart !== -1 && cell.inline.length < LIMITS.textChars) cell.inline += decodeXml(xml.slice(textStart, tag.start));
        break;
    }
    return !out.full;
  });
  out.push('');
}

/** 'A' → 0, 'AB' → 27. */
function columnIndex(letters: string | undefined): number | null {
  if (!letters) return null;
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}
