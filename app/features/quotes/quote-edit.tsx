// A draft's edit page (README, Screens: /quotes/:id/edit). Only a draft is
// edited, and only by those who may write: anyone else, or a quote that has
// left draft, is sent back to the quote's page saying why. Saving hands the
// whole draft to save_quote_draft, which checks it again and computes the
// amounts; a crafted total in the post is not even read.
import { parseWithZod } from '@conform-to/zod/v4';
import { data, Form } from 'react-router';
import { redirectWithError, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/quote-edit';
import { BackLink } from '~/components/records/back-link';
import { PageHeader } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { centsToInput } from '~/lib/money';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { READ_ONLY_MESSAGE, refuseSubmission, refuseWrite } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { loadClientChoices, withClient } from './queries.server';
import { QuoteEditForm, type EditDefaults } from './quote-edit-form';
import { loadQuote, saveQuoteDraft, type QuoteDetail, type QuoteLine } from './quote-queries.server';
import { editQuoteSchema } from './schema';
import { QUOTE_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(`Edit ${loaderData.quote.quote_number ?? TEXTS.draftNumber}`, 'Quotes') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  // The quote and the clients to choose from at once (one round trip).
  const { profile, id, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, async (supabase, id) => {
    const [quote, clients] = await Promise.all([loadQuote(supabase, id, { history: false }), loadClientChoices(supabase, url)]);
    return quote && { ...quote, clients };
  });
  const page = `/quotes/${id}`;
  if (!canWriteBusiness(profile?.role)) throw await redirectWithError(page, READ_ONLY_MESSAGE);
  if (found.quote.status !== 'draft') throw await redirectWithError(page, TEXTS.notDraft);
  return { quote: found.quote, defaults: editDefaults(found.quote, found.items), clients: withClient(found.clients, found.quote.contact) };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/quotes', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const formData = await readFormData(args.request);
    let submission;
    try {
      submission = parseWithZod(formData, { schema: editQuoteSchema });
    } catch {
      // A list button's value that is not JSON, or names no list: no form of ours sends that.
      return dataWithError(args, { result: undefined }, ALTERED_FORM_MESSAGE, { status: 400 });
    }
    // Add, remove or move a line without JavaScript (Conform's list buttons): the form comes back changed, nothing saved.
    if (submission.status === undefined) return data({ result: submission.reply() });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const { error } = await saveQuoteDraft(supabase, id, submission.value);
    if (error) {
      // Sent meanwhile (in another tab): the page says why it cannot be edited.
      if (error.code === '42501' && error.message.includes('Only a draft')) return redirectWithError(page, TEXTS.notDraft);
      console.error(`quote save failed: ${error.message}`);
      return refuseWrite(args, submission, error, TEXTS.saveFailed, { inForm: true });
    }
    return redirectWithSuccess(page, TEXTS.saved);
  });
}

/** The saved draft as the form's starting values: cents as decimals, rates and counts as text. */
function editDefaults(quote: QuoteDetail, items: QuoteLine[]): EditDefaults {
  return {
    contact_id: quote.contact_id ?? '',
    currency: quote.currency,
    expires_on: quote.expires_at ? quote.expires_at.slice(0, 10) : '',
    notes: quote.notes ?? '',
    tax_rate: String(Number(quote.tax_rate)),
    discount: String(Number(quote.discount)),
    items: items.map((item) => ({
      description: item.description,
      quantity: String(item.qty),
      unit_price: centsToInput(Number(item.unit_price), quote.currency),
    })),
  };
}

export default function QuoteEditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, defaults, clients } = loaderData;
  const page = `/quotes/${quote.id}`;
  const number = quote.quote_number ?? TEXTS.draftNumber;
  return (
    <>
      <BackLink to={page}>{`Back to ${number}`}</BackLink>
      <PageHeader title={`Edit ${number}`} description="Only a draft can be edited. Totals are computed when you save." />
      <Card>
        <CardContent className="pt-6">
          <ClientSearch action={`${page}/edit`} query={clients.query} found={clients.options.length} />
          <QuoteEditForm
            action={`${page}/edit`}
            cancelTo={page}
            lastResult={actionData?.result}
            defaultValue={defaults}
            clients={clients.options}
          />
        </CardContent>
      </Card>
    </>
  );
}

/**
 * Narrows the Client select to the clients matching a search (name, email or
 * company), answered by the server so it works without JavaScript. It reloads
 * the page: search before changing the rest.
 */
function ClientSearch({ action, query, found }: { action: string; query: string; found: number }) {
  return (
    <Form method="get" action={action} replace preventScrollReset className="mb-6 grid gap-1" role="search" aria-label="Find a client">
      <label htmlFor="quote-client-q" className="text-sm font-medium">
        Find a client
      </label>
      <div className="flex flex-wrap gap-2">
        <Input id="quote-client-q" name="client_q" type="search" defaultValue={query} placeholder="Name, email or company" className="max-w-sm" aria-describedby="quote-client-q-hint" />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </div>
      <p id="quote-client-q-hint" className="text-sm text-muted-foreground">
        {query && found <= 1 ? `No other client matches "${query}".` : 'Narrows the Client list below. Search before changing the rest: it reloads the page.'}
      </p>
    </Form>
  );
}
