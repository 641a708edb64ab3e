// An item's trail as a CSV download (a resource route): every audit row of the
// item, its reviews and evidence, oldest first (compliance_item_trail, not the
// page's last 100). Staff (auditors included) only: row-level security
// answers others with no item, a 404.
import type { Route } from './+types/item-trail-csv';
import { requireUserWithRecord } from '~/lib/record-page.server';
import { trailCsv, zipName } from './export';
import { loadFullTrail } from './package.server';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, async (supabase, id) => {
    const [{ data: item, error }, trail] = await Promise.all([
      supabase.from('compliance_items').select('id, title').eq('id', id).maybeSingle(),
      loadFullTrail(supabase, id),
    ]);
    if (error) throw new Error(`compliance item failed to load: ${error.message}`);
    return item ? { item, trail } : null;
  });
  if (found.trail.failed) return new Response('The trail could not be loaded. Please try again in a moment.', { status: 503 });
  return new Response(trailCsv(found.trail.entries), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${zipName(found.item.title).replace(/[^A-Za-z0-9_. -]/g, '_')}-trail.csv"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
