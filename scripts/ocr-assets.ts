// Serves tesseract.js from our own origin (decision 032): its worker script,
// the LSTM-only wasm cores and the language data (`eng`, and the languages a
// document is read again in, decision 096) are copied from
// node_modules into public/ocr/ (not committed) whenever Vite starts or builds,
// so the browser never reaches a CDN for OCR and the versions always match the
// installed packages.
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { OCR_LANGUAGES } from '../app/features/documents/ocr/text-language.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OCR_DIR = join(ROOT, 'public/ocr');

/** Where each served file comes from. Only the LSTM cores: the legacy engine (and its 11 MB language data) is never used. */
export function ocrAssets(): { from: string; to: string }[] {
  const require = createRequire(join(ROOT, 'package.json'));
  const tesseract = dirname(require.resolve('tesseract.js/package.json'));
  const core = dirname(require.resolve('tesseract.js-core/package.json'));
  const model = (language: string) => join(dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), `4.0.0_best_int/${language}.traineddata.gz`);
  return [
    { from: join(tesseract, 'dist/worker.min.js'), to: 'worker.min.js' },
    // getCore picks one by what the browser's WebAssembly supports.
    ...['tesseract-core-relaxedsimd-lstm.wasm.js', 'tesseract-core-simd-lstm.wasm.js', 'tesseract-core-lstm.wasm.js'].map((file) => ({ from: join(core, file), to: `core/${file}` })),
    // The integer-quantised LSTM models, the ones tesseract.js itself picks for LSTM only: eng 2.9 MB gzipped,
    // the others 0.7–2.9 MB, each fetched only when a page is read in its language.
    ...['eng', ...OCR_LANGUAGES].map((language) => ({ from: model(language), to: `lang/${language}.traineddata.gz` })),
  ];
}

/** Whether the copy is already the installed file (npm gives every file the same old mtime, so the bytes decide). */
function sameFile(a: string, b: string): boolean {
  try {
    return statSync(a).size === statSync(b).size && readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

export function copyOcrAssets(): void {
  for (const { from, to } of ocrAssets()) {
    const target = join(OCR_DIR, to);
    if (sameFile(from, target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(from, target);
  }
}

/** Copies before Vite serves or bundles public/. */
export function ocrAssetsPlugin(): Plugin {
  return {
    name: 'ops-hub:ocr-assets',
    configResolved() {
      copyOcrAssets();
    },
  };
}
