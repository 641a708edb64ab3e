import { FlaskConical } from '~/components/icons';
import { Badge } from '~/components/ui/badge';
import { PREVIEW_TEXT } from './preview';

/**
 * The top of a screen whose module is not real yet: its figures and rows are
 * samples and its saves are simulated. One component, placed by each preview
 * screen itself, so a screen that becomes real drops its own line.
 */
export function PreviewBanner() {
  return (
    <div
      role="note"
      aria-label="Preview"
      className="mb-4 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="font-medium">{PREVIEW_TEXT}</p>
    </div>
  );
}

/** Marks one sample row of a preview screen, so no sample passes for the account's own. */
export function SampleBadge() {
  return (
    <Badge variant="outline" className="border-dashed">
      Sample
    </Badge>
  );
}
