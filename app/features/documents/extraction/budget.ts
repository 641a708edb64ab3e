// How much work reading one file may take (issue 30: a 924-byte .docx of
// unclosed paragraphs stalled every tenant for 20 s). The readers count their
// steps (a tag, a text item, a zip entry) against a fixed allowance and look
// at the clock now and then; a file past either is 'too complex to read', a
// permanent failure the job does not retry. Steps, not only time: inside a
// Worker the clock stands still while code runs without I/O, so only a count
// stops a synchronous loop there.
import { TEXT_REASONS } from './reasons.ts';

/** Why a file yielded no text; `needs_text` asks a person for it, `failed` says it cannot be read. */
export class NoTextError extends Error {
  readonly outcome: 'needs_text' | 'failed';
  constructor(message: string, outcome: 'needs_text' | 'failed') {
    super(message);
    this.outcome = outcome;
  }
}

/** A file that took more work than any real document needs: failed once, never tried again. */
export class TooComplexError extends NoTextError {
  constructor() {
    super(TEXT_REASONS.tooComplex, 'failed');
  }
}

/** The limits of what is read from one file; past them the rest is left out (text) or the file refused (steps, time). */
export const LIMITS = {
  /** Units of work (tags, text items, zip entries, rows compared) for one file. */
  steps: 4_000_000,
  /** Wall time for one file, checked between steps and pages. */
  ms: 10_000,
  /** Characters of text kept from one file (more than a 100-page contract). */
  textChars: 300_000,
  /** Lines (paragraphs, table rows, sheet rows) kept from one file. */
  lines: 20_000,
  /** Cells kept of one table or sheet row (Excel's widest row is 16,384). */
  cellsPerRow: 1_000,
  /** PDF pages read. */
  pages: 500,
  /** Text items read on one PDF page. */
  itemsPerPage: 10_000,
} as const;

const CLOCK_EVERY = 4096;

export class Budget {
  steps = 0;
  private nextClock = CLOCK_EVERY;
  readonly maxSteps: number;
  readonly deadline: number;
  constructor(maxSteps: number = LIMITS.steps, ms: number = LIMITS.ms) {
    this.maxSteps = maxSteps;
    this.deadline = Date.now() + ms;
  }

  /** Counts `n` steps; throws TooComplexError past the allowance or the deadline. */
  spend(n = 1): void {
    this.steps += n;
    if (this.steps > this.maxSteps) throw new TooComplexError();
    if (this.steps >= this.nextClock) {
      this.nextClock = this.steps + CLOCK_EVERY;
      this.checkClock();
    }
  }

  /** Throws TooComplexError once the deadline has passed (between pages, after an await). */
  checkClock(): void {
    if (Date.now() > this.deadline) throw new TooComplexError();
  }
}

/** Lines of text up to the limits of LIMITS: `full` once no more are kept. */
export class TextLines {
  readonly lines: string[] = [];
  private chars = 0;
  full = false;

  push(line: string): void {
    if (this.full) return;
    const room = LIMITS.textChars - this.chars;
    if (line.length >= room || this.lines.length + 1 >= LIMITS.lines) {
      this.full = true;
      line = line.slice(0, Math.max(room, 0));
    }
    this.lines.push(line);
    this.chars += line.length + 1;
  }
}
