// scratch: score dev texts from /tmp/devtext fast
import { readFileSync } from 'node:fs';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { FIELD_KEYS } from '../../app/features/documents/extraction/fields.ts';
import { sameValue } from '../../tests/support/extraction-corpus.ts';
import { sameLine } from './real-corpus.ts';
// from '../../tests/support/extraction-corpus.ts';
const corpus = JSON.parse(readFileSync('bench/extraction/real/corpus.json', 'utf8'));
const only = process.argv[2]?.startsWith('-') ? undefined : process.argv[2]?.split(',');
const tally: Record<string, { tp: number; fp: number; fn: number }> = {};
const byConf: Record<string, Record<string, [number, number]>> = {};
const misses: string[] = [];
const L = [0, 0];
for (const [file, entry] of Object.entries<any>(corpus)) {
  const text = readFileSync(`/tmp/devtext2/${file}.txt`, 'utf8');
  const { fields } = extractFields(text) as any;
  if (entry.lines) { const found = fields.line_items?.value ?? []; for (const want of entry.lines) { L[1]++; if (found.some((g: any) => sameLine(g, want))) L[0]++; else misses.push(`${file}: line ${want.description}`); } }
  for (const key of FIELD_KEYS) {
    if (only && !only.includes(key)) continue;
    const got = fields[key]; const want = entry.fields[key];
    const t = (tally[key] ??= { tp: 0, fp: 0, fn: 0 });
    const ok = got && want !== undefined && sameValue(key, got.value, want);
    if (ok) t.tp++; else { if (got) t.fp++; if (want !== undefined) t.fn++; }
    if (got) { const c = (byConf[key] ??= {}); const b = String(got.confidence); c[b] ??= [0, 0]; c[b][ok ? 0 : 1]++; }
    if (!ok && (got || want !== undefined)) misses.push(`${file}: ${key} got ${got ? got.value + ' @' + got.confidence : '-'} want ${want ?? '-'}`);
  }
}
for (const [k, t] of Object.entries(tally)) console.log(k.padEnd(15), 'P', (t.tp / (t.tp + t.fp) * 100).toFixed(0), 'R', (t.tp / (t.tp + t.fn) * 100).toFixed(0), JSON.stringify(byConf[k] ?? {}));
console.log('lines', L);
if (process.argv.includes('-v')) console.log(misses.join('\n'));
