import { useMatches } from 'react-router';

/**
 * A route exports `handle = staticPage` when it needs no JavaScript at all:
 * the marketing pages are static, edge-cached HTML whose links and forms are
 * plain HTML, so shipping React to hydrate them would only cost visitors
 * ~120 KB (bench/README.md, page weight).
 */
export const staticPage = { hydrate: false } as const;

/** False when the page being rendered opted out of hydration. */
export function usePageHydrates(): boolean {
  const matches = useMatches();
  const page = matches.at(-1)?.handle as { hydrate?: boolean } | undefined;
  return page?.hydrate !== false;
}
