// "Read text from the image" (decision 032) and "Read text from the scan"
// (decision 095): with JavaScript on, the text of a document's image, or of a
// scanned PDF's pages, is read in the browser and put in the paste box, for
// the person to check and send with the same form as a pasted text. "Read the
// supplier from the logo" (decision 102) reads a PDF's logo the same way and
// puts the name in the review form's Supplier. Without JavaScript the button
// is not there and the box is filled by hand.
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '~/components/ui/button';
import { useHydrated } from '~/lib/use-hydrated';
import type { OcrStep } from './read-image-text';

const STEP_TEXTS: Record<OcrStep, string> = {
  image: 'Fetching the image…',
  engine: 'Starting text recognition…',
  language: 'Loading the English language data…',
  rendering: 'Drawing the scan\'s pages…',
  recognising: 'Reading the text…',
  'other-language': 'Loading the data of the document\'s language…',
  'recognising-language': 'Reading the text in the document\'s language…',
};

/** A logo's reading draws the first page only. */
const stepText = (source: OcrSource, step: OcrStep) => (source === 'logo' && step === 'rendering' ? 'Drawing the first page…' : STEP_TEXTS[step]);

type State =
  | { phase: 'idle' }
  | { phase: 'working'; step: OcrStep; progress: number }
  | { phase: 'done'; message: string }
  | { phase: 'failed'; message: string };

export const OCR_TEXTS = {
  button: 'Read text from the image',
  busy: 'Reading…',
  done: 'Text read from the image: check it below, correct what was misread, then extract the fields.',
  empty: 'No text was found in the image: paste its text below.',
  failed: 'The text could not be read from the image: paste it below.',
} as const;

export const SCAN_TEXTS: Record<keyof typeof OCR_TEXTS, string> = {
  button: 'Read text from the scan',
  busy: 'Reading…',
  done: 'Text read from the scan: check it below, correct what was misread, then extract the fields.',
  empty: 'No text was found in the scan: paste its text below.',
  failed: 'The text could not be read from the scan: paste it below.',
};

export const LOGO_TEXTS: Record<keyof typeof OCR_TEXTS, string> = {
  button: 'Read the supplier from the logo',
  busy: 'Reading…',
  done: 'Supplier read from the logo: check it, then save the fields.',
  empty: 'No name was found in the logo: type the supplier.',
  failed: 'The logo could not be read: type the supplier.',
};

/** What OCR reads: an image, a scanned PDF whose pages are drawn first, or the logo of a PDF's first page. */
export type OcrSource = 'image' | 'scan' | 'logo';

const SOURCE_TEXTS: Record<OcrSource, Record<keyof typeof OCR_TEXTS, string>> = { image: OCR_TEXTS, scan: SCAN_TEXTS, logo: LOGO_TEXTS };

/**
 * `onText` takes what was read; it returns false when it leaves it out (a
 * value the person typed meanwhile is theirs), and `keptText` then says what
 * was read. Focus goes back to the button unless the text was taken (the
 * form then moves it to the field filled).
 */
export function ReadTextButton({
  fileUrl,
  source,
  onText,
  keptText,
}: {
  fileUrl: string;
  source: OcrSource;
  onText: (text: string) => boolean | void;
  keptText?: (text: string) => string;
}) {
  const texts = SOURCE_TEXTS[source];
  const statusId = useId();
  const hydrated = useHydrated();
  const [state, setState] = useState<State>({ phase: 'idle' });
  const button = useRef<HTMLButtonElement>(null);
  // A reading that ends after the button has gone (the fields saved meanwhile) changes nothing.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  if (!hydrated) return null;

  /** The reading's end told, and focus back on the button (re-enabled after this render) when nothing else took it. */
  const finish = (next: State, focusButton: boolean) => {
    setState(next);
    if (focusButton) requestAnimationFrame(() => button.current?.focus());
  };

  async function read() {
    setState({ phase: 'working', step: 'image', progress: 0 });
    try {
      // Loaded on the click: the OCR code weighs nothing on any page until then.
      const { readImageText, readScanText, readLogoName } = await import('./read-image-text');
      const read = { image: readImageText, scan: readScanText, logo: readLogoName }[source];
      const text = (await read(fileUrl, (step, progress) => mounted.current && setState({ phase: 'working', step, progress }))) ?? '';
      if (!mounted.current) return;
      if (!text) return finish({ phase: 'done', message: texts.empty }, true);
      const taken = onText(text) !== false;
      finish({ phase: 'done', message: taken || !keptText ? texts.done : keptText(text) }, !taken);
    } catch (error) {
      console.error('OCR failed:', error);
      if (mounted.current) finish({ phase: 'failed', message: texts.failed }, true);
    }
  }

  const working = state.phase === 'working';
  return (
    <div className="grid gap-2">
      <div>
        <Button ref={button} type="button" variant="outline" onClick={read} disabled={working} aria-describedby={statusId}>
          {working ? texts.busy : texts.button}
        </Button>
      </div>
      {/* The step is announced when it changes; the bar carries the share done. */}
      <p id={statusId} role="status" aria-live="polite" className="text-sm">
        {working ? stepText(source, state.step) : state.phase === 'idle' ? '' : state.message}
      </p>
      {working ? <progress className="w-full" max={100} value={Math.round(state.progress * 100)} aria-label={stepText(source, state.step)} /> : null}
    </div>
  );
}
