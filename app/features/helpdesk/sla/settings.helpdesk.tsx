// Settings › Helpdesk (decision 075): the account's business hours (days,
// opening hours, timezone, holidays) and its SLA targets per priority, in
// business hours. Admins change them (save_helpdesk_sla checks the same
// rules and recomputes the deadlines of open conversations); auditors read
// them. A plain form: works without JavaScript, validated on the server.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.helpdesk';
import { SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { FormField } from '~/components/form-field';
import { EmptyState } from '~/components/settings/empty-state';
import { RestrictedScreen } from '~/components/settings/restricted-screen';
import { SettingsHeader } from '~/components/settings/settings-header';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { ACCOUNT_TIMEZONE_OPTIONS, withCurrent } from '~/features/settings/settings-options';
import { pageTitle } from '~/lib/page-title';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { readAdminForm, requireSettingsUserWith } from '~/lib/settings.server';
import { dataWithError } from '~/lib/toast.server';
import { DEFAULT_TARGETS, PRIORITY_KEYS, slaArgs, slaSettingsSchema, WEEKDAY_OPTIONS, type PriorityKey } from './schema';

const TITLE = 'Helpdesk';
const RESTRICTED = 'Only administrators can manage the helpdesk settings';
const PRIORITY_LABELS: Record<PriorityKey, string> = { urgent: 'Urgent', high: 'High', normal: 'Normal', low: 'Low' };

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Helpdesk Settings') }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ isAdmin, canRead }, [hours, targets]] = await requireSettingsUserWith(request, context, (supabase) =>
    Promise.all([
      supabase.from('helpdesk_business_hours').select('timezone, days, opens_at, closes_at, holidays').maybeSingle(),
      supabase.from('helpdesk_sla_targets').select('priority, first_response_minutes, resolution_minutes, next_response_minutes'),
    ]),
  );
  if (!canRead) return { access: 'restricted' as const };
  const failed = hours.error ?? targets.error;
  if (failed) console.error(`helpdesk settings: ${failed.message}`);
  const byPriority = Object.fromEntries((targets.data ?? []).map((t) => [t.priority, t]));
  const h = hours.data;
  return {
    access: 'granted' as const,
    isAdmin,
    failed: failed !== null,
    // What the account works to now: its own settings, else the database's defaults (private.helpdesk_policy).
    defaults: {
      timezone: h?.timezone ?? 'UTC',
      days: (h?.days ?? [1, 2, 3, 4, 5]).map(String),
      opens_at: (h?.opens_at ?? '09:00').slice(0, 5),
      closes_at: (h?.closes_at ?? '17:00').slice(0, 5),
      holidays: (h?.holidays ?? []).join('\n'),
      ...Object.fromEntries(
        PRIORITY_KEYS.flatMap((p) => {
          const t = byPriority[p] ?? DEFAULT_TARGETS[p];
          return [
            [`first_response_${p}`, String(t.first_response_minutes / 60)],
            [`resolution_${p}`, String(t.resolution_minutes / 60)],
            [`next_response_${p}`, String((t.next_response_minutes ?? t.first_response_minutes) / 60)],
          ];
        }),
      ),
    } as Record<string, string | string[]>,
  };
}

export async function action(args: Route.ActionArgs) {
  const read = await readAdminForm(args, slaSettingsSchema, RESTRICTED);
  if ('refused' in read) return read.refused;
  const { user, submission } = read;
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const { error } = await user.supabase.rpc('save_helpdesk_sla', slaArgs(submission.value));
  if (error) {
    console.error(`helpdesk settings: save failed: ${error.message}`);
    const message = serverMessage(error, 'Failed to save the helpdesk settings');
    return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status: error.code === '22023' ? 400 : 500 });
  }
  return redirectWithSuccess('/settings/helpdesk', 'Helpdesk settings saved');
}

export default function HelpdeskSettings({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') return <RestrictedScreen title={TITLE} message={RESTRICTED} />;
  return (
    <>
      <SettingsHeader
        title={TITLE}
        description="Business hours and SLA targets: the helpdesk counts its deadlines only while you are open."
      />
      {loaderData.failed ? (
        <EmptyState title="Failed to load the helpdesk settings">Please try again in a moment.</EmptyState>
      ) : (
        <SlaForm
          defaults={loaderData.defaults}
          isAdmin={loaderData.isAdmin}
          lastResult={actionData && 'result' in actionData ? (actionData.result as SubmissionResult<string[]>) : undefined}
        />
      )}
    </>
  );
}

function SlaForm({
  defaults,
  isAdmin,
  lastResult,
}: {
  defaults: Record<string, string | string[]>;
  isAdmin: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(slaSettingsSchema, { id: 'helpdesk-sla', lastResult, defaultValue: defaults });
  const chosenDays = new Set((fields.days.value as string[] | string | undefined) ?? defaults.days);
  return (
    <Card>
      <CardContent className="pt-6">
        <Form method="post" className="grid gap-6" {...getFormProps(form)}>
          {form.errors?.length ? (
            <p role="alert" className="text-sm text-destructive">
              {form.errors.join(' ')}
            </p>
          ) : null}
          <fieldset className="grid gap-4" disabled={!isAdmin}>
            <legend className="mb-1 font-semibold">Business hours</legend>
            <SelectField field={fields.timezone} label="Timezone" options={withCurrent(ACCOUNT_TIMEZONE_OPTIONS, String(defaults.timezone))} />
            <fieldset className="grid gap-2" aria-describedby={fields.days.errorId}>
              <legend className="text-sm font-medium">Business days</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {WEEKDAY_OPTIONS.map((day) => (
                  <label key={day.value} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name={fields.days.name} value={day.value} defaultChecked={chosenDays.has(day.value)} className="size-4" />
                    {day.label}
                  </label>
                ))}
              </div>
              {/* Errors of the list and of its items (a value off the list is days[0]'s). */}
              <div id={fields.days.errorId} className="text-sm text-destructive" aria-live="polite">
                {[...new Set(Object.values(fields.days.allErrors ?? {}).flat())].map((error) => (
                  <p key={error}>{error}</p>
                ))}
              </div>
            </fieldset>
            <div className="grid gap-4 sm:grid-cols-2">
              <TimeField field={fields.opens_at} label="Opens at" />
              <TimeField field={fields.closes_at} label="Closes at" />
            </div>
            <TextareaField field={fields.holidays} label="Holidays" hint="One date a line, like 2026-12-25; the clock does not run on them" rows={4} />
          </fieldset>
          <fieldset className="grid gap-4" disabled={!isAdmin}>
            <legend className="mb-1 font-semibold">SLA targets (business hours)</legend>
            {PRIORITY_KEYS.map((p) => (
              <div key={p} className="grid gap-4 sm:grid-cols-[6rem_1fr_1fr_1fr] sm:items-start">
                <p className="pt-8 text-sm font-medium">{PRIORITY_LABELS[p]}</p>
                <TextField field={fields[`first_response_${p}`]} label={`${PRIORITY_LABELS[p]}: first response`} type="number" step="0.25" min="0.25" />
                <TextField field={fields[`resolution_${p}`]} label={`${PRIORITY_LABELS[p]}: resolution`} type="number" step="0.25" min="0.25" />
                <TextField field={fields[`next_response_${p}`]} label={`${PRIORITY_LABELS[p]}: next response`} type="number" step="0.25" min="0.25" />
              </div>
            ))}
          </fieldset>
          {isAdmin ? (
            <div>
              <SubmitButton label="Save Changes" busyLabel="Saving..." />
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">Only administrators can change the helpdesk settings.</p>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}

function TimeField({ field, label }: { field: Parameters<typeof getInputProps>[0]; label: string }) {
  const { key, ...props } = getInputProps(field, { type: 'time' });
  return (
    <FormField label={label} htmlFor={field.id} errorId={field.errorId} errors={field.errors}>
      <Input key={key} {...props} />
    </FormField>
  );
}
