import { Form } from 'react-router';
import { Button } from '~/components/ui/button';
import { NativeSelect } from '~/components/ui/input';
import { statusOptions } from '~/lib/list-query';
import { LEAD_STATUS_FLOW, type LeadStatus } from './schema';

const OPTIONS = statusOptions(LEAD_STATUS_FLOW);

/**
 * A lead's status, changed by a plain form posted to the lead's page (on the
 * page itself and on each row of the list, which it returns to). A select and
 * a button rather than a select that posts on change: changing a select by
 * keyboard must not submit before the user has chosen.
 */
export function LeadStatusForm({
  lead,
  returnTo,
  compact = false,
}: {
  lead: { id: string; name: string; status: string };
  /** The list page to come back to, when posted from a list row. */
  returnTo?: string;
  compact?: boolean;
}) {
  const selectId = `lead-status-${lead.id}`;
  return (
    <Form method="post" action={`/leads/${lead.id}`} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="status" />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <div className="grid gap-1">
        {/* In a list row the select is named for its lead by aria-label: a hidden label would repeat the name in the row's text. */}
        {compact ? null : (
          <label htmlFor={selectId} className="text-sm font-medium">
            Status
          </label>
        )}
        <NativeSelect
          key={lead.status}
          id={selectId}
          name="status"
          defaultValue={lead.status as LeadStatus}
          aria-label={compact ? `Status of ${lead.name}` : undefined}
          className="h-9 w-36"
        >
          {OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" variant="outline" size="sm" aria-label={`Update status of ${lead.name}`}>
        Update
      </Button>
    </Form>
  );
}
