import { readFileSync } from 'node:fs';
import { extractText } from '../../app/features/documents/extraction/text.ts';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
for (const f of process.argv.slice(2)) {
  const text = f.endsWith('.txt') ? readFileSync(f, 'utf8') : (await extractText('application/pdf', new Uint8Array(readFileSync(f)))).text;
  if (process.env.SHOW) console.log(text.split('\n').slice(0, Number(process.env.SHOW)).join('\n'));
  const { fields } = extractFields(text);
  const { line_items, ...rest } = fields;
  console.log('==', f.split('/').pop(), JSON.stringify(Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, `${v!.value} @${v!.confidence}`]))), line_items ? JSON.stringify(line_items.value) : '');
}
