import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import type { ClientChoices } from '~/features/quotes/queries.server';
import {
  DEFAULT_QUOTE_CURRENCY,
  DEFAULT_QUOTE_EXPIRY_DAYS,
  newQuoteSchema,
  QUOTE_CURRENCY_OPTIONS,
  QUOTE_EXPIRY_OPTIONS,
} from '~/features/quotes/schema';
import { useHydrated } from '~/lib/use-hydrated';

const SEARCH_FORM = 'quote-client-search';
const NEW_CLIENT = { value: '', label: 'New client (enter below)' };

/**
 * The create-quote dialog's form (docs/product-guide.md). Posts to /quotes?new,
 * so a failure re-renders it open and filled in. The client is an existing one
 * (a select, narrowed by a search the server answers, so it works without
 * JavaScript) or a new one typed in.
 */
export function NewQuoteForm({
  lastResult,
  clients,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  clients: ClientChoices | null;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useSchemaForm(newQuoteSchema, {
    id: 'new-quote',
    lastResult,
    defaultValue: {
      contact_id: clients?.selectedId ?? '',
      quantity: '1',
      currency: DEFAULT_QUOTE_CURRENCY,
      expires_in_days: String(DEFAULT_QUOTE_EXPIRY_DAYS),
    },
  });
  // With JavaScript, a chosen client hides the new client's fields; without it they stay, marked as for a new client.
  const existingChosen = hydrated && Boolean(fields.contact_id.value);
  return (
    <>
      {/* The client search is its own GET form; its field and button sit in the dialog's form by the form attribute. */}
      <Form id={SEARCH_FORM} method="get" action="/quotes" preventScrollReset replace>
        <input type="hidden" name="new" value="" />
        {clients?.selectedId ? <input type="hidden" name="client" value={clients.selectedId} /> : null}
      </Form>
      <Form method="post" action="/quotes?new" className="grid gap-4" {...getFormProps(form)}>
        <fieldset className="grid gap-3 rounded-md border border-border p-3">
          <legend className="px-1 text-sm font-medium">Client</legend>
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid flex-1 gap-1">
              <label htmlFor="quote-client-q" className="text-sm font-medium">
                Find a client
              </label>
              <Input
                id="quote-client-q"
                form={SEARCH_FORM}
                name="client_q"
                type="search"
                defaultValue={clients?.query ?? ''}
                placeholder="Name, email or company"
              />
            </div>
            <Button type="submit" form={SEARCH_FORM} variant="outline">
              Search
            </Button>
          </div>
          <SelectField
            field={fields.contact_id}
            label="Existing client"
            options={[NEW_CLIENT, ...(clients?.options ?? [])]}
            hint={
              clients && clients.query && clients.options.length === 0
                ? `No client matches "${clients.query}".`
                : 'Choose a client of your account, or enter a new one.'
            }
          />
          {existingChosen ? null : (
            <div className="grid gap-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField field={fields.contact_name} label="Contact name" autoComplete="name" hint={hydrated ? undefined : 'For a new client'} />
                <TextField field={fields.contact_email} label="Contact email" type="email" autoComplete="email" />
              </div>
              <TextField field={fields.company} label="Company" autoComplete="organization" />
            </div>
          )}
        </fieldset>
        <TextareaField field={fields.description} label="Description" rows={3} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.unit_price} label="Unit price" type="number" step="0.01" min="0" inputMode="decimal" />
          <TextField field={fields.quantity} label="Quantity" type="number" step="1" min="1" />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField field={fields.currency} label="Currency" options={QUOTE_CURRENCY_OPTIONS} />
          <SelectField field={fields.expires_in_days} label="Expires in" options={QUOTE_EXPIRY_OPTIONS} />
        </div>
        <TextareaField field={fields.notes} label="Notes" rows={2} />
        <SubmitButton label="Create Quote" busyLabel="Creating..." className="justify-self-end" />
      </Form>
    </>
  );
}
