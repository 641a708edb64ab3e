import { useMatches } from 'react-router';
import { BRAND_NAME } from '~/lib/site';

/** What a route tells the root document about its page, through `export const handle`. */
export interface PageHandle {
  /** false: the page needs no JavaScript at all (no scripts are sent). */
  hydrate?: boolean;
  /** true: the route's `meta` gives its own description (else the default one is used). */
  ownDescription?: boolean;
  /**
   * true (with `hydrate: false`): the page gets the small inline script of
   * app/lib/form-enhancer.ts instead of the framework: pending labels, the
   * toast's dismiss button, focus on the first refused field.
   */
  enhanceForms?: boolean;
}

/**
 * The marketing pages: static, edge-cached HTML whose links and forms are
 * plain HTML, so shipping React to hydrate them would only cost visitors
 * ~120 KB (bench/README.md, page weight); their `meta` describes them.
 */
export const marketingPage: PageHandle = { hydrate: false, ownDescription: true };

/**
 * The sign-in and invitation pages: the first page of every new visitor, two
 * small forms the server validates anyway. Without the framework (~106 KB gzip)
 * they ship no JavaScript file at all; docs/decisions/028.
 */
export const plainFormPage: PageHandle = { hydrate: false, enhanceForms: true };

export const DEFAULT_DESCRIPTION = `${BRAND_NAME}: leads, quotes, invoices, shipments, documents and compliance in one hub.`;

/** The handle of the page being rendered (the deepest match). */
export function usePageHandle(): PageHandle {
  const matches = useMatches();
  return (matches.at(-1)?.handle as PageHandle | undefined) ?? {};
}
