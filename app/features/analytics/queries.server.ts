// What the analytics screen asks of the database: one call, analytics_page,
// with the range of the URL; it answers the range's figures and the previous
// period's (bench/README.md, "Analytics", says what serves each figure).
import type { Supabase } from '~/lib/supabase.server';
import type { AnalyticsPage } from './figures';
import type { AnalyticsRange } from './range';

export async function loadAnalytics(supabase: Supabase, range: AnalyticsRange): Promise<AnalyticsPage> {
  const { data, error } = await supabase.rpc('analytics_page', {
    p_range: range.range,
    ...(range.range === 'custom' ? { p_from: range.from, p_to: range.to } : {}),
  });
  if (error) throw new Error(`analytics failed to load: ${error.message}`);
  return data as unknown as AnalyticsPage;
}
