// GET /analytics/export?report_type=…&format=…&date_range=…: the report file
// (a resource route). The Export Report dialog's post sends the browser here.
import type { Route } from './+types/analytics.export';
import { exportReportFile } from './export/action.server';

export async function loader(args: Route.LoaderArgs) {
  return exportReportFile(args);
}
