// An item's audit package as a zip download (a resource route): its record,
// reviews, trail and evidence files with a manifest of SHA-256 hashes. Built
// here for an item whose evidence fits the cap; a larger one is refused with a
// clear message (building it in the jobs runner is not done yet).
import type { Route } from './+types/item-package';
import { requireUserWithRecord } from '~/lib/record-page.server';
import { auditPackage, zipName } from './export';
import { EVIDENCE_BUCKET } from './evidence.server';
import { loadComplianceItem } from './queries.server';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

/** What one request gathers into a zip at most: the Worker's memory holds it whole. */
export const MAX_PACKAGE_BYTES = 40 * 1024 * 1024;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadComplianceItem);
  const { item, reviews, evidence, history, occurrences } = found;
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' };
  const total = evidence.reduce((sum, e) => sum + Number(e.file_size), 0);
  if (total > MAX_PACKAGE_BYTES) {
    return new Response('The evidence of this item is too large for one download (40 MB at most).', { status: 413, headers });
  }
  if (history.failed) return new Response('The trail could not be loaded. Please try again in a moment.', { status: 503, headers });
  const files = await Promise.all(
    evidence.map(async (e) => {
      const { data, error } = await supabase.storage.from(EVIDENCE_BUCKET).download(e.file_path);
      if (error) console.error(`evidence file missing from the package: ${e.file_path}: ${error.message}`);
      return { ...e, bytes: data ? new Uint8Array(await data.arrayBuffer()) : null };
    }),
  );
  const zip = await auditPackage({
    item: { ...item, occurrences },
    reviews,
    trail: history.entries,
    evidence: files,
    generatedAt: new Date().toISOString(),
  });
  return new Response(zip as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${zipName(item.title).replace(/[^A-Za-z0-9_. -]/g, '_')}-audit-package.zip"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
