// Field-level precision and recall of doc2data's template-free extraction over
// the corpus (tests/fixtures/documents), and the extraction time per page, as
// the extraction job runs it (text, then fields). Prints a Markdown table per
// set: the documents the extractor was tuned on, and the held-out ones; then
// the images read by OCR (bench/extraction/ocr.ts) and extracted the same way.
// Run: npm run bench:extraction
import { FIELD_KEYS } from '../../app/features/documents/extraction/fields.ts';
import { scoreCorpus, type CorpusScore } from '../../tests/support/extraction-corpus.ts';
import { ocrTable, scoreOcr } from './ocr.ts';

const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)}%`);

function table(title: string, score: CorpusScore): string {
  const done = score.documents.filter((d) => d.outcome === 'done');
  const lines = [
    `### ${title}: ${score.documents.length} documents (${done.length} with text, ${done.reduce((n, d) => n + d.pages, 0)} pages)`,
    '',
    '| field | found right | found wrong or where none is | missed | precision | recall |',
    '|---|---|---|---|---|---|',
    ...FIELD_KEYS.map((key) => {
      const f = score.fields[key];
      return `| ${key} | ${f.tp} | ${f.fp} | ${f.fn} | ${percent(f.precision)} | ${percent(f.recall)} |`;
    }),
    '',
    `Extraction time: ${score.msPerPage.toFixed(1)} ms per page (text and fields, mean over the documents with text, after a warm-up pass that loads pdf.js).`,
    score.wrongOutcomes.length > 0 ? `\nWrong outcomes: ${score.wrongOutcomes.join('; ')}` : '',
    score.misses.length > 0 ? `\nMisses:\n${score.misses.map((m) => `- ${m}`).join('\n')}` : '',
  ];
  return lines.join('\n');
}

// A first pass loads pdf.js, so the measured pass times extraction, not start-up.
await scoreCorpus();
console.log(table('Tuned set', await scoreCorpus()));
console.log('');
console.log(table('Held-out set', await scoreCorpus({ heldOut: true })));
console.log('');
console.log(ocrTable(await scoreOcr()));
