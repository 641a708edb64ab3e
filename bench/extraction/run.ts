// Field-level precision and recall of doc2data's template-free extraction, and
// the extraction time per page, as the extraction job runs it (text, then
// fields), over two sets: the real documents (bench/extraction/real, public
// documents with hand-written fields; per field and per language) and the
// generated corpus (tests/fixtures/documents: the documents the extractor was
// tuned on, and the held-out ones); then the images read by OCR
// (bench/extraction/ocr.ts). Every table also gives the share of wrong values
// among those given at confidence 0.8 or more.
// Run: npm run bench:extraction (add -- --no-ocr to leave the OCR table out,
// -- --real-only to score only the sets of real documents, -- --development-only
// to score only the development set of real documents, -- --logos to read the
// logo of every PDF with text of each set as well, -- --ocr-english-only to
// read images in English alone, as before decision 096)
import { FIELD_KEYS } from '../../app/features/documents/extraction/fields.ts';
import { readExpected, scoreCorpus, type CorpusScore } from '../../tests/support/extraction-corpus.ts';
import { ocrTable, scoreOcr } from './ocr.ts';
import { BLIND_SETS, emptyTally, scoreLogos, scoreRealCorpus, tallyField, type RealSet, type Tally } from './real-corpus.ts';

const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)}%`);
const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

function row(name: string, t: Tally): string {
  return `| ${name} | ${t.tp} | ${t.fp} | ${t.fn} | ${percent(ratio(t.tp, t.tp + t.fp))} | ${percent(ratio(t.tp, t.tp + t.fn))} | ${t.sureWrong}/${t.sure} (${percent(ratio(t.sureWrong, t.sure))}) |`;
}
const HEADER = [
  '| field | found right | found wrong or where none is | missed | precision | recall | wrong at ≥ 0.8 |',
  '|---|---|---|---|---|---|---|',
];

function generatedTable(title: string, score: CorpusScore, heldOut: boolean): string {
  const expected = readExpected();
  const tallies = Object.fromEntries(FIELD_KEYS.map((key) => [key, emptyTally()]));
  const all = emptyTally();
  for (const document of score.documents) {
    const entry = expected[document.file];
    if (entry.outcome !== 'done' || (entry.heldOut ?? false) !== heldOut) continue;
    for (const key of FIELD_KEYS) {
      tallyField(tallies[key], key, document.fields[key], entry.fields[key]);
      tallyField(all, key, document.fields[key], entry.fields[key]);
    }
  }
  const done = score.documents.filter((d) => d.outcome === 'done');
  return [
    `### ${title}: ${score.documents.length} documents (${done.length} with text, ${done.reduce((n, d) => n + d.pages, 0)} pages)`,
    '',
    ...HEADER,
    ...FIELD_KEYS.map((key) => row(key, tallies[key])),
    row('**all fields**', all),
    '',
    `Extraction time: ${score.msPerPage.toFixed(1)} ms per page (text and fields, mean over the documents with text, after a warm-up pass that loads pdf.js).`,
    score.wrongOutcomes.length > 0 ? `\nWrong outcomes: ${score.wrongOutcomes.join('; ')}` : '',
    score.misses.length > 0 ? `\nMisses:\n${score.misses.map((m) => `- ${m}`).join('\n')}` : '',
  ].join('\n');
}

/** A blind set's misses as counts per document: which documents fail, never what was expected. */
function blindMisses(misses: string[]): string {
  const perDocument = new Map<string, number>();
  for (const miss of misses) {
    const file = miss.slice(0, miss.indexOf(':'));
    perDocument.set(file, (perDocument.get(file) ?? 0) + 1);
  }
  return `Misses per document (values not shown: a blind set): ${[...perDocument].map(([file, n]) => `${file} ${n}`).join(', ')}`;
}

// A first pass loads pdf.js, so the measured pass times extraction, not start-up.
await scoreCorpus();
const developmentOnly = process.argv.includes('--development-only');
for (const set of (developmentOnly ? ['development'] : ['development', 'held-out', 'held-out-2']) as RealSet[]) {
  const real = await scoreRealCorpus(set, { ocr: !process.argv.includes('--no-ocr'), inLanguage: !process.argv.includes('--ocr-english-only') });
  if (real === null) {
    console.log(`### Real documents, ${set} set: not on this machine (see bench/extraction/real/README.md)`);
  } else {
    console.log(
      [
        `### Real documents, ${set} set: ${real.documents} documents (${real.pages} pages of text${real.ocr.images > 0 ? `, ${real.ocr.images} images read by OCR` : ''})`,
        '',
        ...HEADER,
        ...FIELD_KEYS.map((key) => row(key, real.fields[key])),
        row('**all fields**', real.all),
        row('supplier_name from the text alone, before a logo is read', real.supplierFromText),
        '',
        '| language | found right | found wrong or where none is | missed | precision | recall | wrong at ≥ 0.8 |',
        '|---|---|---|---|---|---|---|',
        ...Object.entries(real.languages).map(([language, tally]) => row(language, tally)),
        '',
        ...(Object.keys(real.ocrLanguages).length > 0
          ? ['| documents read by OCR, language | found right | found wrong or where none is | missed | precision | recall | wrong at ≥ 0.8 |', '|---|---|---|---|---|---|---|', ...Object.entries(real.ocrLanguages).map(([language, tally]) => row(language, tally)), '']
          : []),
        real.logos.length > 0 ? `Logos read (PDFs with text and no supplier found, "Read the supplier from the logo"): ${BLIND_SETS.includes(set) ? real.logos.length : real.logos.join('; ')}.` : '',
        '',
        `Line items: ${real.lines.right} of ${real.lines.expected} annotated lines found with description, quantity and amount right (${percent(ratio(real.lines.right, real.lines.expected))}); ${real.lines.found} lines given on those documents.`,
        '',
        `Extraction time: ${real.msPerPage.toFixed(1)} ms per page of text${real.ocr.images > 0 ? `; OCR ${real.ocr.msPerImage.toFixed(0)} ms per image` : ''}.`,
        real.ocr.skipped.length > 0 ? `\nImages left out (OCR off, --no-ocr): ${real.ocr.skipped.join(', ')}` : '',
        real.missingFiles.length > 0 ? `\nNot on this machine: ${real.missingFiles.join(', ')}` : '',
        real.changedFiles.length > 0 ? `\nNot the cited bytes (sha256 differs): ${real.changedFiles.join(', ')}` : '',
        real.ocr.languages.length > 0 && !BLIND_SETS.includes(set) ? `\nOCR read in: ${real.ocr.languages.join(', ')}` : '',
        real.ocr.scans.length > 0 ? `\nScans (PDFs without text) rendered by pdftoppm and read by OCR: ${real.ocr.scans.join(', ')}` : '',
        BLIND_SETS.includes(set) ? `\n${blindMisses(real.misses)}` : `\nMisses:\n${real.misses.map((m) => `- ${m}`).join('\n')}`,
      ].join('\n'),
    );
  }
  console.log('');
}
// `--logos`: the logo reading made on every PDF with text of each set (a few minutes of OCR).
if (process.argv.includes('--logos')) {
  for (const set of ['development', 'held-out', 'held-out-2'] as RealSet[]) {
    const logos = await scoreLogos(set);
    if (logos === null) continue;
    console.log(`### Logos read on every PDF with text, ${set} set: ${logos.right} right, ${logos.wrong} wrong, ${logos.none} nothing read`);
    if (logos.names.length > 0) console.log(`\n${logos.names.map((name) => `- ${name}`).join('\n')}\n`);
  }
}
if (process.argv.includes('--real-only') || developmentOnly) process.exit(0);
console.log('');
console.log(generatedTable('Generated, tuned set', await scoreCorpus(), false));
console.log('');
console.log(generatedTable('Generated, held-out set', await scoreCorpus({ heldOut: true }), true));
// OCR takes a minute; `--no-ocr` leaves it out while working on the text extractor.
if (!process.argv.includes('--no-ocr')) {
  console.log('');
  console.log(ocrTable(await scoreOcr()));
}
