// OCR in the browser (decision 032): tesseract.js, loaded only when a person
// asks for it, with its worker script, wasm core and `eng` data from our own
// origin (public/ocr/, copied from node_modules by scripts/ocr-assets.ts).
// The worker is started from its own URL, not a blob: so the page's CSP
// (script-src 'self') allows it and the worker's scripts and wasm are its own.

/** Where scripts/ocr-assets.ts puts the files. */
export const OCR_BASE = '/ocr';

export type OcrStep = 'image' | 'engine' | 'language' | 'recognising';

/** tesseract.js's log statuses, as the steps a person is told about. */
function stepOf(status: string): OcrStep | null {
  if (status === 'recognizing text') return 'recognising';
  if (status.includes('traineddata')) return 'language';
  if (status.includes('core') || status.includes('initializ')) return 'engine';
  return null;
}

export class OcrImageError extends Error {}

/** Reads the text of the image at `imageUrl` (our own origin), telling `onProgress` each step and its share done (0–1). */
export async function readImageText(imageUrl: string, onProgress: (step: OcrStep, progress: number) => void): Promise<string> {
  onProgress('image', 0);
  const response = await fetch(imageUrl, { credentials: 'same-origin' });
  if (!response.ok) throw new OcrImageError(`image ${response.status}`);
  const image = await response.blob();
  onProgress('engine', 0);
  const { createWorker, OEM } = await import('tesseract.js');
  const base = new URL(OCR_BASE, window.location.origin).href;
  // tesseract.js reports a failure while loading the language data only to
  // errorHandler (createWorker's promise never settles then): it ends the wait.
  let fail: (reason: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = (reason) => reject(new Error(String(reason)))));
  const worker = await Promise.race([
    createWorker('eng', OEM.LSTM_ONLY, {
      workerPath: `${base}/worker.min.js`,
      corePath: `${base}/core`,
      langPath: `${base}/lang`,
      workerBlobURL: false,
      errorHandler: fail,
      logger: (message: { status: string; progress: number }) => {
        const step = stepOf(message.status);
        if (step) onProgress(step, message.progress);
      },
    }),
    failed,
  ]);
  try {
    const { data } = await Promise.race([worker.recognize(image), failed]);
    return data.text.trim();
  } finally {
    await worker.terminate();
  }
}
