// The seller's brand at the top of a public page (decision 051): a band in the
// seller's accent colour with their logo and name. The text on it is black or
// white, whichever keeps WCAG AA contrast on the colour the seller chose
// (app/lib/contrast). brandStyle sets the same pair as the page's primary
// colour, so the page's main button wears the brand too.
import type { CSSProperties } from 'react';
import { textColorOn } from '~/lib/contrast';

/** The accent as the primary colour of a subtree (Tailwind's theme variables), or nothing when there is none. */
export function brandStyle(accent: string | null): CSSProperties | undefined {
  if (!accent) return undefined;
  return { '--color-primary': accent, '--color-primary-foreground': textColorOn(accent) } as CSSProperties;
}

export function SellerBand({ name, logoSrc }: { name: string; logoSrc: string | null }) {
  return (
    <div className="flex flex-wrap items-center gap-4 rounded-t-xl bg-primary px-6 py-4 text-primary-foreground" data-testid="seller-band">
      {logoSrc ? (
        // On a white tile: a logo drawn for a white page stays legible on any accent.
        // Its name is the text beside it, so the image itself says nothing more.
        <img src={logoSrc} alt="" className="h-12 w-auto max-w-40 rounded-md bg-white object-contain p-1" />
      ) : null}
      <p className="text-lg font-semibold break-words">{name}</p>
    </div>
  );
}
