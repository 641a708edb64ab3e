// scratch: dump each dev doc's text (OCR included) to /tmp/devtext2
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { extractText } from '../../app/features/documents/extraction/text.ts';
const corpus = JSON.parse(readFileSync('bench/extraction/real/corpus.json', 'utf8'));
const { ocrReader } = await import('./real-corpus.ts') as any;
let reader: any = null;
for (const file of Object.keys(corpus)) {
  const out = `/tmp/devtext2/${file}.txt`;
  if (existsSync(out)) continue;
  const path = join('bench/extraction/real/files', file);
  if (/\.(png|jpe?g)$/i.test(file)) { reader ??= await ocrReader({}); writeFileSync(out, await reader.read(path)); continue; }
  try { const { text } = await extractText('application/pdf', new Uint8Array(readFileSync(path))); writeFileSync(out, text); } catch (e) { console.log(file, String(e)); }
}
await reader?.stop();
