import { Form } from 'react-router';
import { Button } from '~/components/ui/button';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import type { AnalyticsRange } from './range';
import { DATE_RANGE_OPTIONS } from './schema';

/**
 * The Date Range control: a plain GET form, so it works without JavaScript and
 * the range stays in the URL. The dates count only for "Custom range".
 */
export function RangeForm({ range, error }: { range: AnalyticsRange; error?: string }) {
  return (
    <Form method="get" action="/analytics" aria-label="Period shown" className="mb-4 grid gap-3 sm:flex sm:flex-wrap sm:items-end">
      <div className="grid gap-2">
        <Label htmlFor="analytics-range">Period</Label>
        <NativeSelect id="analytics-range" name="range" defaultValue={range.range}>
          {DATE_RANGE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex">
        <div className="grid gap-2">
          <Label htmlFor="analytics-from">From</Label>
          <Input id="analytics-from" type="date" name="from" defaultValue={range.from ?? ''} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="analytics-to">To</Label>
          <Input id="analytics-to" type="date" name="to" defaultValue={range.to ?? ''} />
        </div>
      </div>
      <Button type="submit" variant="outline">
        Apply
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-destructive sm:basis-full">
          {error}. Showing the last 30 days.
        </p>
      ) : null}
    </Form>
  );
}
