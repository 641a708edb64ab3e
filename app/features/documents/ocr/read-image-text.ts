// OCR in the browser (decision 032): tesseract.js, loaded only when a person
// asks for it, with its worker script, wasm core and `eng` data from our own
// origin (public/ocr/, copied from node_modules by scripts/ocr-assets.ts).
// The worker is started from its own URL, not a blob: so the page's CSP
// (script-src 'self') allows it and the worker's scripts and wasm are its own.
// A scan (a PDF without a text layer) has its pages drawn by pdf.js (unpdf's
// build, the one the extraction job reads text with) into a canvas first,
// then read the same way (decision 095). A page whose words are another
// language's is read again with that language's model, loaded then from
// /ocr/lang/ too (decision 096, read-in-language.ts). The words are laid out
// in rows and columns as a PDF's text is (layout-text.ts).

import { ENLARGE_FACTOR, worthEnlarging } from './enlarge.ts';
import type * as UnpdfModule from 'unpdf';
import { layerBoxes } from './layer-boxes.ts';
import { pageReading } from './layout-text.ts';
import { logoLanguages, logoName, logoParameters, logoScale } from './logo-name.ts';
import { languageReader } from './read-in-language.ts';

/** Where scripts/ocr-assets.ts puts the files. */
export const OCR_BASE = '/ocr';

/** The pages of a scan read at most: a longer scan's text is pasted. */
export const SCAN_MAX_PAGES = 10;
/** Pages drawn at 2.5× their size (180 dpi): small print stays readable for tesseract. */
const SCAN_SCALE = 2.5;

export type OcrStep = 'image' | 'engine' | 'language' | 'rendering' | 'recognising' | 'other-language' | 'recognising-language';
export type OnProgress = (step: OcrStep, progress: number) => void;

/** tesseract.js's log statuses, as the steps a person is told about (`ownLanguage`: with another language's model than English). */
function stepOf(status: string, ownLanguage: boolean): OcrStep | null {
  if (status === 'recognizing text') return ownLanguage ? 'recognising-language' : 'recognising';
  if (status.includes('traineddata')) return ownLanguage ? 'other-language' : 'language';
  if (status.includes('core') || status.includes('initializ')) return 'engine';
  return null;
}

export class OcrImageError extends Error {}

/** unpdf, loaded on the click as the OCR code is, and a PDF it opened. */
type Unpdf = typeof UnpdfModule;
type PdfDocument = Awaited<ReturnType<Unpdf['getDocumentProxy']>>;

/** The file at `url` (our own origin). */
async function fetchFile(url: string, onProgress: OnProgress): Promise<Blob> {
  onProgress('image', 0);
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new OcrImageError(`file ${response.status}`);
  return response.blob();
}

/** A started tesseract worker, with `failed` (rejects when its data fails to load) and `useLanguages` to switch its languages. */
async function startEngine(onProgress: OnProgress) {
  onProgress('engine', 0);
  const { createWorker, OEM } = await import('tesseract.js');
  const base = new URL(OCR_BASE, window.location.origin).href;
  // tesseract.js reports a failure while loading the language data only to
  // errorHandler (createWorker's promise never settles then): it ends the wait.
  let fail: (reason: unknown) => void = () => {};
  // Whether the worker reads with the document's own language (not English alone): the steps say so.
  let ownLanguage = false;
  // While switching languages a failed load rejects reinitialize itself: it is not the end of the reading.
  let switching = false;
  const failed = new Promise<never>((_, reject) => (fail = (reason) => reject(new Error(String(reason)))));
  const worker = await Promise.race([
    createWorker('eng', OEM.LSTM_ONLY, {
      workerPath: `${base}/worker.min.js`,
      corePath: `${base}/core`,
      langPath: `${base}/lang`,
      workerBlobURL: false,
      errorHandler: (reason: unknown) => (switching ? undefined : fail(reason)),
      logger: (message: { status: string; progress: number }) => {
        const step = stepOf(message.status, ownLanguage);
        if (step) onProgress(step, message.progress);
      },
    }),
    failed,
  ]);
  const useLanguages = async (languages: string) => {
    const before = ownLanguage;
    ownLanguage = languages !== 'eng';
    switching = true;
    try {
      await worker.reinitialize(languages, OEM.LSTM_ONLY);
    } catch (error) {
      ownLanguage = before;
      throw error;
    } finally {
      switching = false;
    }
  };
  return { worker, failed, useLanguages, stop: () => worker.terminate() };
}

/** A started tesseract worker: `read` gives an image's text; `stop` ends the worker. */
async function startReader(onProgress: OnProgress) {
  const { worker, failed, useLanguages, stop } = await startEngine(onProgress);
  const read = async (image: Blob, radians: number) => {
    return pageReading((await Promise.race([worker.recognize(image, radians ? { rotateRadians: radians } : {}, { blocks: true }), failed])).data);
  };
  // Read the right way up (a page stored sideways is turned first, upright.ts), in the page's language.
  const reader = languageReader({ read, turn: turned, useLanguages, enlarge: enlarged });
  return { read: async (image: Blob) => (await reader.read(image)).text.trim(), stop };
}

/** The image turned whole by `radians` (a quarter turn: its sides swapped), clockwise, as a PNG. */
async function turned(image: Blob, radians: number): Promise<Blob> {
  const bitmap = await createImageBitmap(image);
  const canvas = document.createElement('canvas');
  const quarter = Math.abs(Math.sin(radians)) > 0.5;
  canvas.width = quarter ? bitmap.height : bitmap.width;
  canvas.height = quarter ? bitmap.width : bitmap.height;
  const context = canvas.getContext('2d');
  if (!context) throw new OcrImageError('no canvas');
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate(radians);
  context.drawImage(bitmap, -bitmap.width / 2, -bitmap.height / 2);
  bitmap.close();
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new OcrImageError('canvas'))), 'image/png'));
}

/** A small image at ENLARGE_FACTOR times its size, smoothed, as a PNG; null for one that is not small (enlarge.ts). */
async function enlarged(image: Blob): Promise<Blob | null> {
  const bitmap = await createImageBitmap(image);
  try {
    if (!worthEnlarging(bitmap.width, bitmap.height)) return null;
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width * ENLARGE_FACTOR;
    canvas.height = bitmap.height * ENLARGE_FACTOR;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  } finally {
    bitmap.close();
  }
}

/**
 * The file's work (fetching, opening) and the OCR engine's start (its wasm
 * and language data) at the same time: neither waits for the other. If
 * either fails, what the other made is let go: a reader that started anyway
 * is stopped, a file opened anyway is closed (`close`).
 */
async function alongside<T, Engine extends { stop: () => Promise<unknown> }>(
  file: Promise<T>,
  starting: Promise<Engine>,
  close: (file: T) => unknown = () => {},
): Promise<[T, Engine]> {
  // Awaited below; a rejection before that is not an unhandled one.
  starting.catch(() => {});
  file.catch(() => {});
  try {
    return [await file, await starting];
  } catch (error) {
    void starting.then((reader) => reader.stop(), () => {});
    void file.then(close, () => {});
    throw error;
  }
}

/** Reads the text of the image at `imageUrl` (our own origin), telling `onProgress` each step and its share done (0–1). */
export async function readImageText(imageUrl: string, onProgress: OnProgress): Promise<string> {
  const [image, reader] = await alongside(fetchFile(imageUrl, onProgress), startReader(onProgress));
  try {
    return await reader.read(image);
  } finally {
    await reader.stop();
  }
}

/**
 * The PDF at `fileUrl` opened by pdf.js (unpdf's build, loading while the
 * file arrives) while the OCR engine (`starting`) starts; `work` runs with
 * both, and each is let go after, even when the other fails.
 */
async function withPdf<Engine extends { stop: () => Promise<unknown> }, Result>(
  fileUrl: string,
  onProgress: OnProgress,
  starting: Promise<Engine>,
  work: (pdf: PdfDocument, engine: Engine, unpdf: Unpdf) => Promise<Result>,
): Promise<Result> {
  const unpdf = import('unpdf');
  unpdf.catch(() => {});
  const opened = fetchFile(fileUrl, onProgress).then(async (file) => (await unpdf).getDocumentProxy(new Uint8Array(await file.arrayBuffer())));
  const [pdf, engine] = await alongside(opened, starting, (pdf) => pdf.destroy());
  try {
    return await work(pdf, engine, await unpdf);
  } finally {
    await Promise.allSettled([engine.stop(), pdf.destroy()]);
  }
}

/** Reads the text of the first SCAN_MAX_PAGES pages of the scanned PDF at `fileUrl`, page after page. */
export async function readScanText(fileUrl: string, onProgress: OnProgress): Promise<string> {
  return withPdf(fileUrl, onProgress, startReader(onProgress), async (pdf, reader, { renderPageAsImage }) => {
    onProgress('rendering', 0);
    const pages = Math.min(pdf.numPages, SCAN_MAX_PAGES);
    const texts: string[] = [];
    for (let number = 1; number <= pages; number++) {
      onProgress('rendering', (number - 1) / pages);
      const png = await renderPageAsImage(pdf, number, { scale: SCAN_SCALE });
      texts.push(await reader.read(new Blob([png], { type: 'image/png' })));
    }
    return texts.filter(Boolean).join('\n\n');
  });
}

/**
 * The sender's name from the logo at the top of the first page of the PDF at
 * `fileUrl`, when its text layer has none (logo-name.ts): the page drawn,
 * read as sparse text in the language of its text layer, and only the words
 * the layer does not draw kept. Null when the logo names nothing readable.
 */
export async function readLogoName(fileUrl: string, onProgress: OnProgress): Promise<string | null> {
  return withPdf(fileUrl, onProgress, startEngine(onProgress), async (pdf, engine, { renderPageAsImage }) => {
    onProgress('rendering', 0);
    const page = await pdf.getPage(1);
    const { width, height } = page.getViewport({ scale: 1 });
    const scale = logoScale(width, height);
    const layer = await layerBoxes(page, scale);
    const png = await renderPageAsImage(pdf, 1, { scale });
    const languages = logoLanguages(layer.text);
    // Without the language's data the logo is read in English: a name's accents may be lost, not the name.
    if (languages !== 'eng') await engine.useLanguages(languages).catch(() => {});
    await Promise.race([engine.worker.setParameters(logoParameters(scale) as never), engine.failed]);
    const { data } = await Promise.race([engine.worker.recognize(new Blob([png], { type: 'image/png' }), {}, { blocks: true }), engine.failed]);
    return logoName(data.blocks, layer);
  });
}
