// An item's audit package as a zip download (a resource route): its record,
// reviews, full trail and evidence files with a manifest of SHA-256 hashes.
// Built here while the item's evidence is under the inline limit; a larger
// one is built by the jobs runner and mailed (the item's page offers it, and
// this answers 413 saying so: package.server.ts).
import { env } from 'cloudflare:workers';
import type { Route } from './+types/item-package';
import { requireUserWithRecord } from '~/lib/record-page.server';
import { auditPackage, zipName } from './export';
import { EVIDENCE_BUCKET } from './evidence.server';
import { inlinePackageLimit, packageByMail } from './package-plan';
import { loadFullTrail } from './package.server';
import { loadComplianceItem } from './queries.server';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, (client, id) =>
    Promise.all([loadComplianceItem(client, id), loadFullTrail(client, id)]).then(([item, trail]) => (item ? { ...item, trail } : null)));
  const { item, reviews, evidence, trail, occurrences } = found;
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' };
  if (packageByMail(evidence, inlinePackageLimit(env))) return new Response(TEXTS.packageTooLarge, { status: 413, headers });
  if (trail.failed) return new Response('The trail could not be loaded. Please try again in a moment.', { status: 503, headers });
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
    trail: trail.entries,
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

