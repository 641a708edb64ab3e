// The real-document corpus (bench/extraction/real/corpus.json): documents from
// public repositories, cited there with their commit, path and licence, and
// the fields a person reads on each, written by hand. The documents are not in
// this repository (see bench/extraction/real/README.md): they are read from
// EXTRACTION_REAL_CORPUS, else bench/extraction/real/files, else the shared/
// folder beside the clone (shared/extraction-corpus). Scored like the
// generated set, field by field, and also per language, with the share of
// wrong values given at confidence 0.8 or more.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { FIELD_KEYS, type DocumentFields } from '../../app/features/documents/extraction/fields.ts';
import { extractText } from '../../app/features/documents/extraction/text.ts';
import { NoTextError } from '../../app/features/documents/extraction/budget.ts';
import { languageReader } from '../../app/features/documents/ocr/read-in-language.ts';
import { OCR_LANGUAGES } from '../../app/features/documents/ocr/text-language.ts';
import { pageReading } from '../../app/features/documents/ocr/layout-text.ts';
import { readUpright } from '../../app/features/documents/ocr/upright.ts';
import { ENLARGE_FACTOR, worthEnlarging } from '../../app/features/documents/ocr/enlarge.ts';
import { layerBoxes } from '../../app/features/documents/ocr/layer-boxes.ts';
import { logoLanguages, logoName, logoParameters, logoScale } from '../../app/features/documents/ocr/logo-name.ts';
import { getDocumentProxy } from 'unpdf';
import { sameValue } from '../../tests/support/extraction-corpus.ts';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'real');

export interface RealDocument {
  language: string;
  layout: string;
  /** Where the document is cited from; `note` says how a file was made from it (an HTML rendering printed to PDF). */
  source: { repository: string; commit: string; path: string; licence: string; note?: string };
  sha256: string;
  fields: Record<string, string>;
  /** The document's line items as a person reads them (description, quantity, amount), where annotated. */
  lines?: { description: string; quantity: string; amount: string }[];
}

/**
 * The two sets of real documents: 'development' (corpus.json, which the
 * extractor was corrected against) and 'held-out' (heldout.json: invoice2data's
 * published test documents, which the issue keeps apart as the honest measure;
 * never tuned against: read their misses, never fix the extractor for one).
 */
export type RealSet = 'development' | 'held-out' | 'held-out-2';
const SET_FILES: Record<RealSet, string> = { development: 'corpus.json', 'held-out': 'heldout.json', 'held-out-2': 'heldout2.json' };
/**
 * The second held-out set (heldout2.json, 2026-11-27): 24 documents from other extraction projects' published
 * test data and samples (mindee's SDKs, AWS Textractor, Google's Document AI samples, Azure's samples, a
 * receipt parser, OCA/edi), 17 of them photos or scans, annotated by a helper who never ran the extractor on
 * them. Its misses are counted per document, never printed with their values: nobody tunes against it.
 */
export const BLIND_SETS: readonly RealSet[] = ['held-out-2'];

export function readRealCorpus(set: RealSet = 'development'): Record<string, RealDocument> {
  return JSON.parse(readFileSync(join(HERE, SET_FILES[set]), 'utf8')) as Record<string, RealDocument>;
}

/** Where the documents are, or null when this machine has none of them. */
export function realCorpusDir(): string | null {
  const candidates = [process.env.EXTRACTION_REAL_CORPUS, join(HERE, 'files'), join(HERE, '../../../../shared/extraction-corpus')];
  return candidates.find((dir): dir is string => dir !== undefined && existsSync(dir)) ?? null;
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
  /** Values given at confidence >= 0.8, and how many of them were wrong. */
  sure: number;
  sureWrong: number;
}

export const emptyTally = (): Tally => ({ tp: 0, fp: 0, fn: 0, sure: 0, sureWrong: 0 });

/** One field of one document counted into a tally: found right, found wrong, missed. Returns whether it was a miss or wrong. */
export function tallyField(tally: Tally, key: string, got: { value: string; confidence: number } | undefined, want: string | undefined): boolean {
  if (got === undefined && want === undefined) return false;
  const right = got !== undefined && want !== undefined && sameValue(key, got.value, want);
  if (got !== undefined && got.confidence >= 0.8) {
    tally.sure += 1;
    if (!right) tally.sureWrong += 1;
  }
  if (right) {
    tally.tp += 1;
    return false;
  }
  if (got !== undefined) tally.fp += 1;
  if (want !== undefined) tally.fn += 1;
  return true;
}

export interface RealScore {
  documents: number;
  pages: number;
  missingFiles: string[];
  changedFiles: string[];
  fields: Record<string, Tally>;
  languages: Record<string, Tally>;
  all: Tally;
  misses: string[];
  msPerPage: number;
  /** Images (scans, photos, screenshots) read by OCR: how many, and the mean OCR time per image (not in msPerPage). */
  ocr: { images: number; msPerImage: number; skipped: string[]; scans: string[]; languages: string[] };
  /** The documents read by OCR (images and scans) alone, per language: what reading in the document's language moves. */
  ocrLanguages: Record<string, Tally>;
  /** Annotated lines, and those found with description, quantity and amount right. */
  lines: { expected: number; right: number; found: number };
  /** PDFs with text but no supplier found, whose logo was read ("Read the supplier from the logo"): 'file → name'. */
  logos: string[];
  /** The supplier as the text alone gives it, before any logo is read. */
  supplierFromText: Tally;
}

const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** A found line is the annotated one when its description holds the annotated one's words, and quantity and amount are the same numbers. */
function sameLine(got: { description: string; quantity: string | null; amount: string | null }, want: { description: string; quantity: string; amount: string }): boolean {
  return squash(got.description).includes(squash(want.description)) && Number(got.quantity) === Number(want.quantity) && Number(got.amount) === Number(want.amount);
}

const IMAGE = /\.(png|jpe?g)$/i;

/**
 * A name read from a logo is put in the review form by a person's click, for them to check and save: scored below 0.8,
 * as a value the review asks the person to look at.
 */
const LOGO_CONFIDENCE = 0.5;

/** A scanned PDF's first pages as PNG files (poppler's pdftoppm, 200 dpi, grey), or none when pdftoppm is not installed. */
function renderPdfPages(path: string, maxPages = 5, look: { dpi: number; colour: boolean } = { dpi: 200, colour: false }): string[] {
  const out = mkdtempSync(join(tmpdir(), 'scan-'));
  const run = spawnSync('pdftoppm', ['-r', String(look.dpi), ...(look.colour ? [] : ['-gray']), '-png', '-l', String(maxPages), path, join(out, 'page')], { timeout: 60_000 });
  if (run.error || run.status !== 0) return [];
  return readdirSync(out).filter((name) => name.endsWith('.png')).sort().map((name) => join(out, name));
}

/** ImageMagick, to turn a sideways page whole as the browser's canvas does (the first that is installed). */
const IMAGEMAGICK = ['/usr/bin/convert-im6.q16', '/usr/bin/magick', '/usr/bin/convert'].find((path) => existsSync(path));

/**
 * The text of an image as the browser's OCR reads it (tesseract.js, best_int models, LSTM only), the right way up
 * (app/features/documents/ocr/upright.ts; a sideways page is turned by ImageMagick here, by a canvas there) and
 * in the document's language (read-in-language.ts, decision 096; `inLanguage: false` reads in English only).
 * `languages` lists the languages each image was read with.
 */
export async function ocrReader(options: { inLanguage?: boolean } = {}): Promise<{ read: (path: string) => Promise<string>; readLogo: (path: string, bytes: Uint8Array) => Promise<string | null>; stop: () => Promise<void>; languages: string[] }> {
  // Without it the bench would read what the browser turns or enlarges as it is, and score lower without saying why.
  if (!IMAGEMAGICK) throw new Error('OCR needs ImageMagick (apt-get install imagemagick) to turn and enlarge images as the browser does; or run with --no-ocr');
  const { createRequire } = await import('node:module');
  const { createWorker, OEM } = await import('tesseract.js');
  const require = createRequire(import.meta.url);
  // One folder with every language's model, as public/ocr/lang/ is for the browser.
  const langPath = mkdtempSync(join(tmpdir(), 'ocr-lang-'));
  for (const language of ['eng', ...OCR_LANGUAGES]) {
    const file = `${language}.traineddata.gz`;
    symlinkSync(join(dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), '4.0.0_best_int', file), join(langPath, file));
  }
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, cacheMethod: 'none' });
  const read = async (path: string, radians: number) => {
    return pageReading((await worker.recognize(path, radians ? { rotateRadians: radians } : {}, { blocks: true })).data);
  };
  const turn = async (path: string, radians: number) => {
    const out = join(mkdtempSync(join(tmpdir(), 'turned-')), 'page.png');
    const run = spawnSync(IMAGEMAGICK, [path, '-rotate', String(Math.round((radians * 180) / Math.PI)), out], { timeout: 60_000 });
    return run.status === 0 ? out : path;
  };
  const useLanguages = async (languages: string) => void (await worker.reinitialize(languages, OEM.LSTM_ONLY));
  // A small image read poorly is read again enlarged (ocr/enlarge.ts), by a cubic filter as the browser's canvas smooths it.
  const enlarge = async (path: string) => {
    const [width, height] = (spawnSync(IMAGEMAGICK, [path, '-format', '%w %h', 'info:'], { encoding: 'utf8', timeout: 60_000 }).stdout ?? '').split(' ').map(Number);
    if (!worthEnlarging(width, height)) return null;
    const out = join(mkdtempSync(join(tmpdir(), 'enlarged-')), 'page.png');
    const run = spawnSync(IMAGEMAGICK, [path, '-filter', 'Catrom', '-resize', `${ENLARGE_FACTOR * 100}%`, out], { timeout: 60_000 });
    return run.status === 0 ? out : null;
  };
  const inLanguage = options.inLanguage ?? true;
  const reader = languageReader({ read, turn, useLanguages: inLanguage ? useLanguages : async () => {}, enlarge });
  const languages: string[] = [];
  // The logo's reading ("Read the supplier from the logo", read-image-text.ts): its own engine, as in the browser, since it
  // reads sparse text in the text layer's language.
  let logoWorker: Awaited<ReturnType<typeof createWorker>> | undefined;
  const readLogo = async (path: string, bytes: Uint8Array) => {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    try {
      const page = await pdf.getPage(1);
      const { width, height } = page.getViewport({ scale: 1 });
      const scale = logoScale(width, height);
      const rendered = renderPdfPages(path, 1, { dpi: scale * 72, colour: true });
      if (rendered.length === 0) return null;
      const layer = await layerBoxes(page, scale);
      logoWorker ??= await createWorker('eng', OEM.LSTM_ONLY, { langPath, cacheMethod: 'none' });
      // As in the browser: without the language's data the logo is read in English.
      await logoWorker.reinitialize(logoLanguages(layer.text), OEM.LSTM_ONLY).catch(() => logoWorker!.reinitialize('eng', OEM.LSTM_ONLY));
      await logoWorker.setParameters(logoParameters(scale) as never);
      return logoName((await logoWorker.recognize(rendered[0], {}, { blocks: true })).data.blocks, layer);
    } finally {
      await pdf.destroy();
    }
  };
  return {
    readLogo,
    read: async (path) => {
      if (!inLanguage) return (await readUpright(path, read, turn)).text;
      const page = await reader.read(path);
      languages.push(`${path.slice(path.lastIndexOf('/') + 1)} ${page.languages}`);
      return page.text;
    },
    stop: async () => void (await Promise.all([worker.terminate(), logoWorker?.terminate()])),
    languages,
  };
}

/**
 * Scores one set. Images are read by OCR first (their time apart from the
 * per-page time of text documents); with `ocr: false` they are left out and
 * listed as skipped.
 */
export async function scoreRealCorpus(set: RealSet = 'development', options: { ocr?: boolean; inLanguage?: boolean } = {}): Promise<RealScore | null> {
  const dir = realCorpusDir();
  if (dir === null) return null;
  const corpus = readRealCorpus(set);
  const score: RealScore = { documents: 0, pages: 0, missingFiles: [], changedFiles: [], fields: {}, languages: {}, all: emptyTally(), misses: [], msPerPage: 0, ocrLanguages: {}, ocr: { images: 0, msPerImage: 0, skipped: [], scans: [], languages: [] }, lines: { expected: 0, right: 0, found: 0 }, logos: [], supplierFromText: emptyTally() };
  for (const key of FIELD_KEYS) score.fields[key] = emptyTally();
  let ms = 0;
  let ocrMs = 0;
  const wantsOcr = options.ocr ?? true;
  // Started on the first image or scan, once.
  const started: { reader?: Awaited<ReturnType<typeof ocrReader>> } = {};
  const reader = async () => (started.reader ??= await ocrReader({ inLanguage: options.inLanguage }));
  const ocr = wantsOcr ? { read: async (path: string) => (await reader()).read(path), readLogo: async (path: string, bytes: Uint8Array) => (await reader()).readLogo(path, bytes) } : null;
  try {
    for (const [file, entry] of Object.entries(corpus)) {
      const path = join(dir, file);
      if (!existsSync(path)) {
        score.missingFiles.push(file);
        continue;
      }
      const bytes = new Uint8Array(readFileSync(path));
      if (createHash('sha256').update(bytes).digest('hex') !== entry.sha256) score.changedFiles.push(file);
      const image = IMAGE.test(file);
      if (image && ocr === null) {
        score.ocr.skipped.push(file);
        continue;
      }
      const started = performance.now();
      let text: string;
      let pages = 1;
      let scan = false;
      if (ocr !== null && image) {
        text = await ocr.read(path);
        ocrMs += performance.now() - started;
        score.ocr.images += 1;
      } else {
        try {
          ({ text, pages } = await extractText(file.endsWith('.txt') ? 'text/plain' : 'application/pdf', bytes));
        } catch (error) {
          if (!(error instanceof NoTextError)) throw error;
          // A scan (a PDF without a text layer): its pages rendered and read by OCR, as "Read text from the scan" does
          // in the browser; without OCR (or without poppler's pdftoppm to render them here) nothing is read.
          const rendered = ocr !== null ? renderPdfPages(path) : [];
          text = '';
          for (const page of rendered) text += `${await ocr!.read(page)}\n`;
          if (rendered.length > 0) {
            ocrMs += performance.now() - started;
            score.ocr.images += 1;
            score.ocr.scans.push(file);
          } else score.ocr.skipped.push(file);
          scan = true;
        }
      }
      const fields: DocumentFields = extractFields(text).fields;
      if (!image && !scan) {
        ms += performance.now() - started;
        score.pages += pages;
      }
      tallyField(score.supplierFromText, 'supplier_name', fields.supplier_name, entry.fields.supplier_name);
      // A PDF with text whose supplier is not found offers "Read the supplier from the logo" on its review form: the click
      // a person makes, made here as the scans' "Read text from the scan" is (its time is OCR's, not the text's).
      if (!image && !scan && ocr !== null && !fields.supplier_name && /\.pdf$/i.test(file)) {
        const name = await ocr.readLogo(path, bytes);
        score.logos.push(`${file} → ${name ?? '(none)'}`);
        if (name !== null) fields.supplier_name = { value: name, confidence: LOGO_CONFIDENCE };
      }
      if (entry.lines) {
        const found = fields.line_items?.value ?? [];
        score.lines.expected += entry.lines.length;
        score.lines.found += found.length;
        // One found line answers one annotated line: a document whose 60 rows are alike is not read
        // by giving 20 of them (each matched every alike annotation before).
        const unused = new Set(found.keys());
        for (const want of entry.lines) {
          const match = [...unused].find((index) => sameLine(found[index], want));
          if (match !== undefined) {
            unused.delete(match);
            score.lines.right += 1;
          } else score.misses.push(`${file}: line '${want.description}' ${want.quantity} × = ${want.amount} not found`);
        }
      }
      score.documents += 1;
      const language = (score.languages[entry.language] ??= emptyTally());
      const read = (image || scan) && ocr !== null ? (score.ocrLanguages[entry.language] ??= emptyTally()) : null;
      for (const key of FIELD_KEYS) {
        const got = fields[key];
        const want = entry.fields[key];
        for (const tally of [score.fields[key], language, ...(read ? [read] : [])]) tallyField(tally, key, got, want);
        if (tallyField(score.all, key, got, want)) {
          score.misses.push(`${file}: ${key} found ${got === undefined ? '(nothing)' : `${got.value} @${got.confidence}`}, expected ${want ?? '(nothing)'}`);
        }
      }
    }
  } finally {
    score.ocr.languages = started.reader?.languages ?? [];
    await started.reader?.stop();
  }
  score.msPerPage = score.pages > 0 ? ms / score.pages : 0;
  score.ocr.msPerImage = score.ocr.images > 0 ? ocrMs / score.ocr.images : 0;
  return score;
}

/** The logo reading made on every PDF with text of a set, whether or not its text names the supplier. */
export interface LogoScore {
  /** The name read is the annotated supplier. */
  right: number;
  /** A name read that is not the annotated supplier (a brand, a title, a badge's words). */
  wrong: number;
  /** Nothing read: no logo, or nothing that names anyone. */
  none: number;
  /** 'file: read | annotated' (left empty for a blind set). */
  names: string[];
}

/**
 * How good a suggestion "Read the supplier from the logo" makes, on documents it was not built on: the reading
 * (decision 102) made on every PDF with text of `set`, compared with the annotated supplier. The button is offered only
 * when the text names no supplier; this asks more of it, since a logo is often a brand or a badge beside a name the text
 * prints.
 */
export async function scoreLogos(set: RealSet): Promise<LogoScore | null> {
  const dir = realCorpusDir();
  if (dir === null) return null;
  const reader = await ocrReader();
  const score: LogoScore = { right: 0, wrong: 0, none: 0, names: [] };
  try {
    for (const [file, entry] of Object.entries(readRealCorpus(set))) {
      const path = join(dir, file);
      if (!/\.pdf$/i.test(file) || !existsSync(path)) continue;
      const bytes = new Uint8Array(readFileSync(path));
      try {
        await extractText('application/pdf', bytes);
      } catch (error) {
        if (error instanceof NoTextError) continue;
        throw error;
      }
      const name = await reader.readLogo(path, bytes);
      const want = entry.fields.supplier_name;
      if (name === null) score.none += 1;
      else if (want !== undefined && sameValue('supplier_name', name, want)) score.right += 1;
      else score.wrong += 1;
      if (name !== null && !BLIND_SETS.includes(set)) score.names.push(`${file}: ${name} | ${want ?? '(none)'}`);
    }
  } finally {
    await reader.stop();
  }
  return score;
}
