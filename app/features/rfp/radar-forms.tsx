// The radar settings' forms (issue 38): a feed and a saved search, each for adding or (with its id) editing,
// plain posts that work without JavaScript; the server validates each again (radar-schema.ts).
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from 'react-router';
import { SelectField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { CURRENCY_OPTIONS } from '~/lib/currencies';
import { ALERT_SCORE_OPTIONS, addSearchSchema, addSourceSchema, FEED_FORMAT_OPTIONS, updateSearchSchema, updateSourceSchema } from './radar-schema';

type Result = SubmissionResult<string[]> | undefined;
const ACTION = '/rfp/radar/settings';

export function SourceForm({ editing, defaultValue, lastResult }: { editing: string | null; defaultValue?: FormDefaults; lastResult: Result }) {
  const intent = editing ? 'update-source' : 'add-source';
  const [form, fields] = useSchemaForm(editing ? updateSourceSchema : addSourceSchema, {
    id: editing ? `source-${editing}` : 'add-source', lastResult, defaultValue: { format: 'ocds', ...defaultValue, intent },
  });
  return (
    <Form method="post" action={ACTION} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {editing ? <input type="hidden" name="id" value={editing} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.name} label="Feed name" />
        <SelectField field={fields.format} label="Format" options={FEED_FORMAT_OPTIONS} />
      </div>
      <TextField field={fields.url} label="Feed address" type="text" inputMode="url" placeholder="https://" />
      <TextField
        field={fields.query}
        label="TED expert query"
        hint="TED only: POSTed to https://api.ted.europa.eu/v3/notices/search, e.g. classification-cpv IN (72000000) SORT BY publication-number DESC"
      />
      <div className="flex justify-end gap-2">
        {editing ? <Link to={ACTION} className={buttonClasses('outline')}>Cancel</Link> : null}
        <SubmitButton intent={intent} label={editing ? 'Save Feed' : 'Add Feed'} busyLabel="Saving..." />
      </div>
    </Form>
  );
}

const NO_CURRENCY = [{ value: '', label: 'No minimum' }, ...CURRENCY_OPTIONS];

export function SearchForm({ editing, defaultValue, lastResult }: { editing: string | null; defaultValue?: FormDefaults; lastResult: Result }) {
  const intent = editing ? 'update-search' : 'add-search';
  const [form, fields] = useSchemaForm(editing ? updateSearchSchema : addSearchSchema, {
    id: editing ? `search-${editing}` : 'add-search', lastResult, defaultValue: { horizon_days: '90', alert_score: '80', ...defaultValue, intent },
  });
  return (
    <Form method="post" action={ACTION} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {editing ? <input type="hidden" name="id" value={editing} /> : null}
      <TextField field={fields.name} label="Search name" />
      <TextField field={fields.keywords} label="Keywords" hint="Separated by commas: cloud hosting, data centre" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.cpv_codes} label="CPV codes" hint="Eight digits each; 72000000 covers all IT services" />
        <TextField field={fields.countries} label="Buyer countries" hint="Two-letter codes: GB, DE, FR (empty: any)" />
        <TextField field={fields.min_value} label="Minimum value" type="number" step="0.01" min="0" inputMode="decimal" />
        <SelectField field={fields.min_currency} label="Minimum value's currency" options={NO_CURRENCY} />
        <TextField field={fields.horizon_days} label="Deadline within (days)" type="number" min="1" max="730" />
        <SelectField field={fields.alert_score} label="Mail a new match at once" options={ALERT_SCORE_OPTIONS} />
      </div>
      <div className="flex justify-end gap-2">
        {editing ? <Link to={ACTION} className={buttonClasses('outline')}>Cancel</Link> : null}
        <SubmitButton intent={intent} label={editing ? 'Save Search' : 'Add Search'} busyLabel="Saving..." />
      </div>
    </Form>
  );
}
