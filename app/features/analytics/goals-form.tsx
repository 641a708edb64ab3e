// The Monthly Goals form of Settings → Account (admins write; others see the
// targets read-only). Blank fields are no goal. Works without JavaScript.
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { SectionHeading } from '~/components/page-header';
import { centsToInput } from '~/lib/money';
import { GOALS_INTENT, goalsSchema, type GoalTargets } from './goals';

export function GoalsForm({ targets, isAdmin, lastResult }: { targets: GoalTargets; isAdmin: boolean; lastResult?: SubmissionResult<string[]> }) {
  const money = (currency: string) => {
    const cents = targets.revenue?.[currency];
    return cents ? centsToInput(cents, currency) : '';
  };
  const [form, fields] = useSchemaForm(goalsSchema, {
    id: 'analytics-goals',
    lastResult,
    defaultValue: {
      intent: GOALS_INTENT,
      revenue_usd: money('USD'),
      revenue_eur: money('EUR'),
      revenue_gbp: money('GBP'),
      new_leads: targets.new_leads ? String(targets.new_leads) : '',
      new_clients: targets.new_clients ? String(targets.new_clients) : '',
      signed_quotes: targets.signed_quotes ? String(targets.signed_quotes) : '',
    },
  });
  return (
    <Card id="goals">
      <CardHeader>
        <SectionHeading>Monthly Goals</SectionHeading>
        <p className="text-sm text-muted-foreground">
          Targets for each calendar month, shown with their progress on Analytics. Revenue is the payments collected, per currency. Leave a field blank for no goal.
        </p>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={GOALS_INTENT} />
          <fieldset className="grid gap-4 sm:grid-cols-3" disabled={!isAdmin}>
            <TextField field={fields.revenue_usd} label="Revenue in USD" inputMode="decimal" />
            <TextField field={fields.revenue_eur} label="Revenue in EUR" inputMode="decimal" />
            <TextField field={fields.revenue_gbp} label="Revenue in GBP" inputMode="decimal" />
            <TextField field={fields.new_leads} label="New leads" inputMode="numeric" />
            <TextField field={fields.new_clients} label="New clients" inputMode="numeric" />
            <TextField field={fields.signed_quotes} label="Signed quotes" inputMode="numeric" />
          </fieldset>
          {isAdmin ? (
            <div>
              <SubmitButton label="Save Goals" busyLabel="Saving..." />
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">Only an admin can change the goals.</p>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}
