// Reading a page in the document's own language (decision 096). tesseract's
// English model drops accents and misreads words of other languages
// ("zapłaty" → "zaptaty", "Preço" → "Preco"). The page is read with the
// model in use (first `eng`), the right way up (upright.ts); the text's
// common words name its language (text-language.ts); if that is another
// language, the page is read again with `<lang>+eng` (English kept for the
// English words every invoice has: IBAN, VAT, Total) and the reading with the
// higher mean confidence is kept. The engine stays on the detected language,
// so a scan's further pages in that language are read once. A small image
// read poorly is first read again at twice its size (enlarge.ts). Shared by
// the browser's OCR and the extraction bench, each with its own engine.
import { ENLARGE_BELOW } from './enlarge.ts';
import { detectLanguage, withEnglish } from './text-language.ts';
import { readUpright, type Reading } from './upright.ts';

export interface OcrEngine<Image> {
  /** Reads `image` turned by `radians` (clockwise) with the languages in use. */
  read: (image: Image, radians: number) => Promise<Reading>;
  /** The image turned whole by `radians` (its sides swapped), clockwise. */
  turn: (image: Image, radians: number) => Promise<Image>;
  /** Switches the engine to `languages` ('deu+eng'), loading the data it lacks; throws if that data does not load, the engine unchanged. */
  useLanguages: (languages: string) => Promise<void>;
  /** The image at ENLARGE_FACTOR times its size, or null when it is not small (enlarge.ts). */
  enlarge?: (image: Image) => Promise<Image | null>;
}

export interface PageReading extends Reading {
  /** The languages the kept reading was made with ('eng', 'deu+eng'). */
  languages: string;
}

/** A reader of pages in their language; `languages` is what the engine starts with. */
export function languageReader<Image>(engine: OcrEngine<Image>, languages = 'eng') {
  let current = languages;
  // Languages whose data could not be loaded: not asked for again (tesseract.js counts them as loaded).
  const unavailable = new Set<string>();
  return {
    async read(image: Image): Promise<PageReading> {
      let first = await readUpright(image, engine.read, engine.turn);
      // A small image read poorly: the image as it came, enlarged, read again the right way up; the more confident reading
      // kept (enlarge.ts). (Not the first reading's image: noise may have read best turned.)
      const larger = first.confidence < ENLARGE_BELOW && engine.enlarge ? await engine.enlarge(image) : null;
      if (larger !== null) {
        const again = await readUpright(larger, engine.read, engine.turn);
        if (again.confidence > first.confidence) first = again;
      }
      const made = current;
      const detected = detectLanguage(first.text);
      // Unclear (little text, two languages alike): the reading stands.
      const wanted = detected === null ? current : withEnglish(detected);
      const kept = { text: first.text, confidence: first.confidence, languages: made };
      if (wanted === current || unavailable.has(wanted)) return kept;
      try {
        await engine.useLanguages(wanted);
      } catch {
        // The language's data did not load (offline, blocked): the reading made stands, the engine unchanged.
        unavailable.add(wanted);
        return kept;
      }
      current = wanted;
      const again = await engine.read(first.image, 0);
      return again.confidence > first.confidence ? { text: again.text, confidence: again.confidence, languages: wanted } : kept;
    },
  };
}
