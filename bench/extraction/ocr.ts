// OCR of the corpus's images (decision 032) with the engine and data the
// browser uses: tesseract.js's LSTM-only core and the `eng` 4.0.0_best_int
// model from @tesseract.js-data/eng (in Node, read from node_modules instead
// of public/ocr/), read the right way up as the browser does, then the same field extraction as a pasted text. Scores the
// fields a person reads on each image, as the corpus bench does.
import { join } from 'node:path';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { CORPUS_DIR, readExpected, sameValue } from '../../tests/support/extraction-corpus.ts';
import { ocrReader } from './real-corpus.ts';

export interface OcrScore {
  images: { file: string; ms: number; right: number; expected: number; misses: string[] }[];
  /** Per field: [found right, expected]. */
  fields: Record<string, [number, number]>;
}

export async function scoreOcr(): Promise<OcrScore> {
  const images = Object.entries(readExpected()).filter(([file, e]) => /\.(png|jpe?g)$/i.test(file) && Object.keys(e.fields).length > 0);
  const reader = await ocrReader();
  const score: OcrScore = { images: [], fields: {} };
  try {
    for (const [file, expected] of images) {
      const started = performance.now();
      const text = await reader.read(join(CORPUS_DIR, file));
      const ms = performance.now() - started;
      const { fields } = extractFields(text);
      const misses: string[] = [];
      let right = 0;
      for (const [key, want] of Object.entries(expected.fields)) {
        const got = fields[key as keyof typeof fields]?.value;
        const ok = typeof got === 'string' && sameValue(key, got, want);
        score.fields[key] ??= [0, 0];
        score.fields[key][1] += 1;
        if (ok) {
          score.fields[key][0] += 1;
          right += 1;
        } else misses.push(`${key} read ${typeof got === 'string' ? got : '(nothing)'}, expected ${want}`);
      }
      score.images.push({ file, ms, right, expected: Object.keys(expected.fields).length, misses });
    }
  } finally {
    await reader.stop();
  }
  return score;
}

export function ocrTable(score: OcrScore): string {
  const percent = (right: number, of: number) => `${((right / of) * 100).toFixed(0)}%`;
  return [
    `### OCR (tesseract.js in Node, eng best_int, LSTM only): ${score.images.length} image(s)`,
    '',
    '| field | read right | expected | recall |',
    '|---|---|---|---|',
    ...Object.entries(score.fields).map(([key, [right, of]]) => `| ${key} | ${right} | ${of} | ${percent(right, of)} |`),
    '',
    ...score.images.map((image) => `- ${image.file}: ${image.right}/${image.expected} fields, OCR ${image.ms.toFixed(0)} ms${image.misses.length ? ` (missed: ${image.misses.join('; ')})` : ''}`),
  ].join('\n');
}
