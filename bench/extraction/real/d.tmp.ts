import { readFileSync } from 'node:fs';
import { extractText } from '/work/wt/doc2data/app/features/documents/extraction/text.ts';
const f = process.argv[2];
const { text, pages } = await extractText('application/pdf', new Uint8Array(readFileSync(f)));
console.log('PAGES', pages); console.log(text);
