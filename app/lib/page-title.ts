// One page-title style for every screen: the page, then its section, then
// the product ("INV-2026-0001 · Invoices — OpsHub Pro").
import { BRAND_NAME } from '~/lib/site';

export function pageTitle(...parts: string[]): string {
  return `${parts.join(' · ')} — ${BRAND_NAME}`;
}
