// A PDF page's text items laid back into lines and columns by position, in
// time that grows with the items (issue 30: finding an item's line by
// searching every line so far was quadratic in a page of many lines). A line
// is found through buckets of its height: an item joins the first line made
// whose baseline is within 0.4 of the larger font size of the two, and with
// font sizes held between 1 and 100 that line is in the item's bucket or the
// next one either side, each holding at most ~100 lines (lines in one bucket
// are at least 0.4 apart). Items past LIMITS.itemsPerPage are left out.
import { LIMITS, type Budget } from './budget.ts';

export interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

/** A page's items read at most (one may carry a long string; the lines keep LIMITS.itemsPerPage of them). */
const MAX_READ_ITEMS = LIMITS.itemsPerPage * 4;

/**
 * pdf.js's text content items (`getTextContent().items`) as Items: their
 * string, where their baseline starts, their width and font size, and the
 * item's transform (for a caller that needs its direction). Marked-content
 * markers and empty strings are left out; at most MAX_READ_ITEMS are read.
 */
export function textItems(items: readonly object[]): (Item & { transform: number[] })[] {
  const read: (Item & { transform: number[] })[] = [];
  for (const item of items) {
    if (read.length >= MAX_READ_ITEMS) break;
    if (!('str' in item) || typeof item.str !== 'string' || !('transform' in item) || !Array.isArray(item.transform)) continue;
    const transform = item.transform as number[];
    const width = 'width' in item && typeof item.width === 'number' ? item.width : 0;
    read.push({ str: item.str, x: transform[4], y: transform[5], width, fontSize: Math.hypot(transform[2], transform[3]), transform });
  }
  return read;
}

interface Row {
  /** Order made: the first row that fits wins, as it always has. */
  order: number;
  y: number;
  size: number;
  items: Item[];
}

const MIN_SIZE = 1;
const MAX_SIZE = 100;
/** The widest distance at which an item still joins a line: 0.4 of the largest size. */
const BUCKET = MAX_SIZE * 0.4;

/** Where an item ends across the page: its width, or half its size a character when pdf.js gives none. */
const itemEnd = (item: Item, size: number) => item.x + (item.width || item.str.length * size * 0.5);

/** How many of a line's last items an item off its baseline is checked against (bounded: linear time). */
const STACK_CHECKS = 16;

/**
 * Whether an item off a line's baseline stands over or under one of its items
 * (their spans across the page overlap): then it is a line of its own, though
 * within the line's reach. A large name beside a column of small labels and
 * values ('ironpress' beside 'Invoice #' over 'INV-2026-0042' over 'Date')
 * reached two of them, and ran them together ('INV-2026-0042Date'). Items on
 * the same baseline that overlap are one line drawn twice (a bold overprint).
 */
function stacked(row: Row, item: Item, size: number, budget: Budget): boolean {
  const start = item.x;
  const end = itemEnd(item, size);
  for (let i = row.items.length - 1; i >= Math.max(0, row.items.length - STACK_CHECKS); i -= 1) {
    budget.spend();
    const other = row.items[i];
    if (Math.abs(other.y - item.y) <= Math.min(other.fontSize || size, size) * 0.2) continue;
    const otherEnd = itemEnd(other, row.size);
    if (start < otherEnd - 0.5 && other.x < end - 0.5) return true;
  }
  return false;
}

/** A page's items as lines, top to bottom; on a line, a wide gap is a column (a tab). */
export function pageLines(items: Item[], budget: Budget): string {
  const rows: Row[] = [];
  const buckets = new Map<number, Row[]>();
  let kept = 0;
  for (const item of items) {
    budget.spend();
    if (typeof item.str !== 'string' || !Number.isFinite(item.x) || !Number.isFinite(item.y) || !item.str.trim()) continue;
    if (kept >= LIMITS.itemsPerPage) break;
    kept += 1;
    const size = Math.min(Math.max(item.fontSize || 10, MIN_SIZE), MAX_SIZE);
    const key = Math.floor(item.y / BUCKET);
    let row: Row | undefined;
    for (let k = key - 1; k <= key + 1; k += 1) {
      for (const candidate of buckets.get(k) ?? []) {
        budget.spend();
        if ((!row || candidate.order < row.order) && Math.abs(candidate.y - item.y) <= Math.max(candidate.size, size) * 0.4 && !stacked(candidate, item, size, budget)) row = candidate;
      }
    }
    if (row) row.items.push(item);
    else {
      row = { order: rows.length, y: item.y, size, items: [item] };
      rows.push(row);
      const bucket = buckets.get(key);
      if (bucket) bucket.push(row);
      else buckets.set(key, [row]);
    }
  }
  rows.sort((a, b) => b.y - a.y);
  // The page's text stops at the text limit too (one item may carry a long string).
  const lines: string[] = [];
  let chars = 0;
  for (const row of rows) {
    const sorted = row.items.sort((a, b) => a.x - b.x);
    let line = '';
    let end = Number.NEGATIVE_INFINITY;
    for (const item of sorted) {
      const gap = item.x - end;
      if (line) line += gap > row.size * 1.2 ? '\t' : gap > row.size * 0.15 ? ' ' : '';
      line += item.str.trim();
      end = itemEnd(item, row.size);
      if (chars + line.length > LIMITS.textChars) break;
    }
    lines.push(line);
    chars += line.length + 1;
    if (chars > LIMITS.textChars) break;
  }
  return lines.join('\n');
}
