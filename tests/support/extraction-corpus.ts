// The extraction corpus (tests/fixtures/documents, expected.json) run through
// the same code the extraction job runs (text, then fields), scored field by
// field: a field found and right is a true positive; found but wrong, or found
// where the document has none, a false positive; not found (or wrong) where the
// document has one, a false negative. Used by the unit test and the bench.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { FIELD_KEYS, type DocumentFields } from '../../app/features/documents/extraction/fields.ts';
import { extractText, NoTextError } from '../../app/features/documents/extraction/text.ts';
import { ACCEPTED_TYPES } from '../../app/features/documents/values.ts';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/documents');

export interface Expected {
  outcome: 'done' | 'needs_text' | 'failed';
  /** Written after the extractor was tuned, and never tuned on. */
  heldOut?: boolean;
  fields: Record<string, string>;
}

export interface DocumentResult {
  file: string;
  outcome: 'done' | 'needs_text' | 'failed';
  reason?: string;
  fields: DocumentFields;
  pages: number;
  ms: number;
}

export function readExpected(): Record<string, Expected> {
  return JSON.parse(readFileSync(join(CORPUS_DIR, 'expected.json'), 'utf8')) as Record<string, Expected>;
}

function mimeOf(file: string): string {
  const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase() as keyof typeof ACCEPTED_TYPES;
  return ACCEPTED_TYPES[extension];
}

export async function extractCorpusDocument(file: string): Promise<DocumentResult> {
  const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, file)));
  const started = performance.now();
  try {
    const { text, pages } = await extractText(mimeOf(file), bytes);
    const { fields } = extractFields(text);
    return { file, outcome: 'done', fields, pages, ms: performance.now() - started };
  } catch (error) {
    if (!(error instanceof NoTextError)) throw error;
    return { file, outcome: error.outcome, reason: error.message, fields: {}, pages: 1, ms: performance.now() - started };
  }
}

/** Whether a found value is the expected one, as a person would judge it (amounts by value, ids without spaces, case aside). */
export function sameValue(key: string, found: string, expected: string): boolean {
  if (['total', 'subtotal', 'tax_amount'].includes(key)) return Number(found) === Number(expected);
  const squash = (value: string) => value.replace(/\s+/g, key === 'iban' || key === 'tax_id' || key === 'phone' ? '' : ' ').trim().toLowerCase();
  return squash(found) === squash(expected);
}

export interface FieldScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
}

export interface CorpusScore {
  documents: DocumentResult[];
  fields: Record<string, FieldScore>;
  /** Documents whose outcome (done, needs_text, failed) was not the expected one. */
  wrongOutcomes: string[];
  /** Each field that was wrong or missing: 'file: key found X, expected Y'. */
  misses: string[];
  msPerPage: number;
}

/** The corpus scored: the documents the extractor was tuned on, or (heldOut) only those it never saw while being written. */
export async function scoreCorpus(options: { heldOut?: boolean } = {}): Promise<CorpusScore> {
  const expected = Object.fromEntries(Object.entries(readExpected()).filter(([, e]) => (e.heldOut ?? false) === (options.heldOut ?? false)));
  const documents: DocumentResult[] = [];
  for (const file of Object.keys(expected)) documents.push(await extractCorpusDocument(file));
  const fields: Record<string, FieldScore> = {};
  const misses: string[] = [];
  for (const key of FIELD_KEYS) {
    const score = { tp: 0, fp: 0, fn: 0 };
    for (const document of documents) {
      if (expected[document.file].outcome !== 'done') continue;
      const want = expected[document.file].fields[key];
      const got = document.fields[key]?.value;
      if (got === undefined && want === undefined) continue;
      if (got !== undefined && want !== undefined && sameValue(key, got, want)) score.tp += 1;
      else {
        if (got !== undefined) score.fp += 1;
        if (want !== undefined) score.fn += 1;
        misses.push(`${document.file}: ${key} found ${got ?? '(nothing)'}, expected ${want ?? '(nothing)'}`);
      }
    }
    fields[key] = {
      ...score,
      precision: score.tp + score.fp > 0 ? score.tp / (score.tp + score.fp) : null,
      recall: score.tp + score.fn > 0 ? score.tp / (score.tp + score.fn) : null,
    };
  }
  const done = documents.filter((d) => d.outcome === 'done');
  const pages = done.reduce((sum, d) => sum + d.pages, 0);
  return {
    documents,
    fields,
    wrongOutcomes: documents.filter((d) => d.outcome !== expected[d.file].outcome).map((d) => `${d.file}: ${d.outcome}, expected ${expected[d.file].outcome}`),
    misses,
    msPerPage: pages > 0 ? done.reduce((sum, d) => sum + d.ms, 0) / pages : 0,
  };
}
