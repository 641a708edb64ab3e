import { readFileSync } from 'node:fs';
import { extractText } from '../../app/features/documents/extraction/text.ts';
for (const f of process.argv.slice(2)) {
  const b = new Uint8Array(readFileSync(f));
  const { text, pages } = await extractText(f.endsWith('.txt') ? 'text/plain' : 'application/pdf', b);
  console.log(`=== ${f} pages=${pages}\n` + text.split('\n').slice(0, 45).join('\n'));
}
