// The Conversion Rate card of /quotes (docs/product-guide.md, Quotes): signed
// ÷ sent, where a quote counts as sent once it has left draft (sent, viewed,
// signed, declined, superseded, or expired after it was sent).

export const CONVERSION_TEXTS = {
  noneSent: 'No quotes sent yet',
  noneSigned: 'No conversions yet',
} as const;

/** Whole percent of sent quotes signed; null when none was sent (no rate to speak of). */
export function conversionRate(signed: number, sent: number): number | null {
  if (!(sent > 0)) return null;
  return Math.round((100 * Math.min(signed, sent)) / sent);
}

/** What the card shows: '—' before any quote was sent, else the rate and how it was reached. */
export function conversionFigure(signed: number, sent: number): { value: string; note: string } {
  const rate = conversionRate(signed, sent);
  if (rate === null) return { value: '—', note: CONVERSION_TEXTS.noneSent };
  if (signed === 0) return { value: '0%', note: CONVERSION_TEXTS.noneSigned };
  return { value: `${rate}%`, note: `${signed.toLocaleString('en-US')} of ${sent.toLocaleString('en-US')} sent quotes signed` };
}
