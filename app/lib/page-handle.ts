import { useMatches } from 'react-router';
import { BRAND_NAME } from '~/lib/site';

/** What a route tells the root document about its page, through `export const handle`. */
export interface PageHandle {
  /** false: the page needs no JavaScript at all (no scripts are sent). */
  hydrate?: boolean;
  /** true: the route's `meta` gives its own description (else the default one is used). */
  ownDescription?: boolean;
}

/**
 * The marketing pages: static, edge-cached HTML whose links and forms are
 * plain HTML, so shipping React to hydrate them would only cost visitors
 * ~120 KB (bench/README.md, page weight); their `meta` describes them.
 */
export const marketingPage: PageHandle = { hydrate: false, ownDescription: true };

export const DEFAULT_DESCRIPTION = `${BRAND_NAME}: leads, quotes, invoices, shipments, documents and compliance in one hub.`;

/** The handle of the page being rendered (the deepest match). */
export function usePageHandle(): PageHandle {
  const matches = useMatches();
  return (matches.at(-1)?.handle as PageHandle | undefined) ?? {};
}
