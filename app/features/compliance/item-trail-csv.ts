// An item's trail as a CSV download (a resource route): the audit rows of the
// item, its reviews and evidence, oldest first. Staff (auditors included) only:
// row-level security answers others with no item, a 404.
import type { Route } from './+types/item-trail-csv';
import { requireUserWithRecord } from '~/lib/record-page.server';
import { loadComplianceItem } from './queries.server';
import { trailCsv, zipName } from './export';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadComplianceItem);
  if (found.history.failed) return new Response('The trail could not be loaded. Please try again in a moment.', { status: 503 });
  return new Response(trailCsv(found.history.entries), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${zipName(found.item.title).replace(/[^A-Za-z0-9_. -]/g, '_')}-trail.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
