// /q/:token: the quote a client was mailed, without signing in (decision 030).
// Shows the quote and two forms, Accept and sign and Decline; or, once it is
// signed, declined, expired or replaced by a newer version, says so. A token that matches nothing is a 404,
// too many uses a 429. Never cached, never indexed.
import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, Form, Link, redirect, useLocation, useParams } from 'react-router';
import type { Route } from './+types/public-quote';
import { LineItemsTable } from '~/components/records/line-items-table';
import { FormAlert } from '~/components/form-alert';
import { useSchemaForm } from '~/components/form-controls';
import { FormField } from '~/components/form-field';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader } from '~/components/ui/card';
import { brandStyle, SellerBand } from '~/components/records/seller-band';
import { SellerIdentity } from '~/components/records/seller-identity';
import { accentColor, sellerForPage } from '~/lib/seller';
import { Input, Textarea } from '~/components/ui/input';
import { formatDateTime } from '~/lib/dates';
import { ALTERED_FORM_MESSAGE, HIDDEN_FIELDS, isAlteredForm, readFormData } from '~/lib/forms.server';
import { formatMoney } from '~/lib/money';
import { getRequestSupabase } from '~/lib/supabase.server';
import { useHydrated } from '~/lib/use-hydrated';
import { boundedSignaturePng } from '~/features/quotes/pdf/signature-png';
import { expiryText } from './quote-mail';
import {
  acceptQuote, declineQuote, ipAllowed, IP_WINDOW_SECONDS, openQuoteLink, RefusedValue, TOKEN_PATTERN,
  type LinkAnswer, type LinkState,
} from './queries.server';
import { acceptQuoteSchema, declineQuoteSchema, MAX_SIGNATURE_BYTES, SIGNATURE_MESSAGE, signaturePngBase64 } from './schema';
import { SignaturePad } from './signature-pad';
import { PUBLIC_QUOTE_TEXTS as T } from './texts';

type PageState = LinkState | 'unavailable';

/** A drawn signature is not sent back to the page (it may be large; the canvas starts empty again). */
const HIDE = { hideFields: ['signature'] };
const PAGE_HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };
const STATUS: Record<PageState, number> = {
  open: 200, signed: 200, declined: 200, expired: 200, superseded: 200, not_found: 404, rate_limited: 429, unavailable: 503,
};
/**
 * The form's body: a drawn signature of up to 100 KB arrives as base64 (4/3 of it) beside the other fields;
 * twice that is read, so that a signature somewhat too large is told so under its field, not refused as altered.
 */
const MAX_BODY = Math.ceil((2 * MAX_SIGNATURE_BYTES * 4) / 3) + 16 * 1024;

function answerWith(view: LinkAnswer | { state: 'unavailable' }, extra: Record<string, unknown> = {}, status?: number) {
  const headers: Record<string, string> = { ...PAGE_HEADERS };
  if (view.state === 'rate_limited') headers['Retry-After'] = String(IP_WINDOW_SECONDS);
  if (view.state === 'unavailable') headers['Retry-After'] = '5';
  // The page is told whether there is a logo (shown through /q/:token/logo), not where it is stored.
  const shown = 'seller' in view && view.seller ? { ...view, seller: sellerForPage(view.seller) } : view;
  return data({ view: shown, ...extra }, { status: status ?? STATUS[view.state], headers });
}

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const merged = new Headers(PAGE_HEADERS);
  const retry = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After');
  if (retry) merged.set('Retry-After', retry);
  return merged;
};

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const view = loaderData?.view;
  const title = view && 'quote' in view && view.quote ? `Quote ${view.quote.quote_number ?? ''}` : 'Quote';
  return [{ title }, { name: 'robots', content: 'noindex, nofollow' }];
};

async function load(
  request: Request, supabase: ReturnType<typeof getRequestSupabase>['supabase'], token: string,
): Promise<LinkAnswer | { state: 'unavailable' }> {
  if (!TOKEN_PATTERN.test(token)) return { state: 'not_found' };
  if (!(await ipAllowed(request))) return { state: 'rate_limited' };
  try {
    return await openQuoteLink(supabase, token);
  } catch (error) {
    console.error(`quote link: open failed: ${error instanceof Error ? error.message : String(error)}`);
    return { state: 'unavailable' };
  }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return answerWith(await load(request, getRequestSupabase(context).supabase, params.token));
}

/** What the page says when the answer is not a new signature or decline. */
function noticeFor(state: PageState): string {
  if (state === 'signed') return T.signedAlready;
  if (state === 'declined') return T.declinedAlready;
  if (state === 'expired') return T.expiredTitle;
  if (state === 'superseded') return T.supersededTitle;
  if (state === 'rate_limited') return T.rateLimitedText;
  if (state === 'not_found') return T.notFoundTitle;
  return T.failed;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { supabase } = getRequestSupabase(context);
  const token = params.token;
  const formData = await readFormData(request, MAX_BODY);
  const intent = formData.get('intent') === 'decline' ? 'decline' : 'accept';
  const schema = intent === 'decline' ? declineQuoteSchema : acceptQuoteSchema;
  const submission = parseWithZod(formData, { schema });

  const opened = await load(request, supabase, token);
  if (opened.state !== 'open') {
    const closed = ['signed', 'declined', 'expired', 'superseded'].includes(opened.state);
    return answerWith(opened, { intent, notice: noticeFor(opened.state), result: submission.reply(HIDE) }, closed ? 409 : undefined);
  }
  if (submission.status !== 'success') {
    // A form our page did not send (no intent, a field missing altogether): say so above the form.
    const altered = isAlteredForm(submission, [...HIDDEN_FIELDS, 'signature']);
    return answerWith(opened, { intent, result: submission.reply(altered ? { formErrors: [ALTERED_FORM_MESSAGE], ...HIDE } : HIDE) }, 400);
  }

  let answer: LinkAnswer;
  try {
    if (submission.value.intent === 'decline') {
      answer = await declineQuote(supabase, token, submission.value.decline_reason || undefined);
    } else {
      // The database binds the signature to the quote's document (its snapshot and hash).
      const signaturePng = submission.value.signature ? boundedSignature(submission.value.signature) : undefined;
      if (signaturePng === null) {
        return answerWith(opened, { intent, result: submission.reply({ fieldErrors: { signature: [SIGNATURE_MESSAGE] }, ...HIDE }) }, 400);
      }
      answer = await acceptQuote(supabase, token, {
        name: submission.value.signer_name,
        email: submission.value.signer_email,
        signaturePng,
      });
    }
  } catch (error) {
    // A value the database refused (a control character): said at its field, the rest of the form kept.
    if (error instanceof RefusedValue) {
      return answerWith(opened, { intent, result: submission.reply({ fieldErrors: { [error.field]: [T.refusedValue] }, ...HIDE }) }, 400);
    }
    console.error(`quote link: ${intent} failed: ${error instanceof Error ? error.message : String(error)}`);
    return answerWith(opened, { intent, result: submission.reply({ formErrors: [T.failed], ...HIDE }) }, 503);
  }
  if (answer.signed_now || answer.declined_now) {
    // Post, then get: a reload does not post again, and the page shows the new state
    // (opened from the client portal, it keeps its way back there).
    const back = new URL(request.url).searchParams.get('from') === 'portal' ? '?from=portal' : '';
    throw redirect(`/q/${token}${back}`, { status: 303, headers: PAGE_HEADERS });
  }
  // Another answer got there first (two accepts at once): this one changed nothing.
  return answerWith(answer, { intent, notice: noticeFor(answer.state), result: submission.reply(HIDE) },
    answer.state === 'not_found' || answer.state === 'rate_limited' ? undefined : 409);
}

/**
 * The drawn signature re-encoded within bounds (base64), or null when it is not
 * a PNG this accepts: too many pixels for a signature pad, or pixel data that
 * inflates past what its header says (a decompression bomb).
 */
function boundedSignature(dataUrl: string): string | null {
  const png = signaturePngBase64(dataUrl);
  if ('error' in png) return null;
  const bytes = Uint8Array.from(atob(png.base64), (c) => c.charCodeAt(0));
  const bounded = boundedSignaturePng(bytes);
  if (!bounded) return null;
  let binary = '';
  for (let i = 0; i < bounded.length; i += 0x8000) binary += String.fromCharCode(...bounded.subarray(i, i + 0x8000));
  return btoa(binary);
}

interface ActionAnswer {
  intent?: 'accept' | 'decline';
  notice?: string;
  result?: SubmissionResult<string[]>;
}

export default function PublicQuote({ loaderData, actionData }: Route.ComponentProps) {
  const answered = actionData as (ActionAnswer & { view: LinkAnswer | { state: 'unavailable' } }) | undefined;
  // Without JavaScript the page a post answers with shows the action's view (the database's word after the post).
  const view = (answered?.view ?? loaderData.view) as LinkAnswer | { state: 'unavailable' };
  // The seller's accent is the page's primary colour: the brand band and Accept and sign.
  const accent = 'seller' in view ? accentColor(view.seller) : null;
  return (
    <main className="min-h-screen bg-muted px-4 py-10" style={brandStyle(accent)}>
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <PortalBackLink />
        {answered?.notice ? (
          <div id="quote-link-error" role="status" className="rounded-md border border-border bg-background p-3 text-sm font-medium">
            <p>{answered.notice}</p>
          </div>
        ) : null}
        <StateBody view={view} answered={answered} />
      </div>
    </main>
  );
}

function StateBody({ view, answered }: { view: LinkAnswer | { state: 'unavailable' }; answered?: ActionAnswer }) {
  if (view.state === 'not_found') return <Message title={T.notFoundTitle} text={T.notFoundText} />;
  if (view.state === 'rate_limited') return <Message title={T.rateLimitedTitle} text={T.rateLimitedText} />;
  if (view.state === 'superseded') return <Message title={T.supersededTitle} text={T.supersededText} />;
  if (view.state === 'unavailable') return <Message title="Quote unavailable" text={T.unavailable} />;
  const answer = view as LinkAnswer;
  if (!answer.quote) return <Message title={T.notFoundTitle} text={T.notFoundText} />;
  return (
    <>
      <QuoteCard answer={answer} />
      {answer.state === 'signed' ? (
        <Message
          level={2}
          title={T.signedTitle}
          text={`Signed by ${answer.quote.signer_name ?? ''}${answer.quote.signed_at ? ` on ${formatDateTime(answer.quote.signed_at)}` : ''}.`}
        />
      ) : answer.state === 'declined' ? (
        <Message level={2} title={T.declinedTitle} text={answer.quote.declined_at ? `Declined on ${formatDateTime(answer.quote.declined_at)}.` : ''} />
      ) : answer.state === 'expired' ? (
        <Message level={2} title={T.expiredTitle} text={T.expiredText} />
      ) : (
        <>
          <AcceptForm lastResult={answered?.intent === 'accept' ? answered.result : undefined} />
          <DeclineForm lastResult={answered?.intent === 'decline' ? answered.result : undefined} />
        </>
      )}
    </>
  );
}

/** Opened from the client portal (decision 050): the way back there. A link only, so the flag needs no trust. */
function PortalBackLink() {
  const { search } = useLocation();
  if (new URLSearchParams(search).get('from') !== 'portal') return null;
  return (
    <p className="text-sm">
      <Link to="/portal" className="underline underline-offset-2">
        {T.backToPortal}
      </Link>
    </p>
  );
}

/** A state's message: the page's h1 alone, an h2 under the quote (whose number is the h1). */
function Message({ title, text, level = 1 }: { title: string; text: string; level?: 1 | 2 }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <Card>
      <CardHeader>
        <Heading className="text-xl font-semibold">{title}</Heading>
        {text ? <CardDescription>{text}</CardDescription> : null}
      </CardHeader>
    </Card>
  );
}

function QuoteCard({ answer }: { answer: LinkAnswer }) {
  const quote = answer.quote!;
  const money = (cents: number) => formatMoney(cents, quote.currency);
  const { token = '' } = useParams();
  const hasLogo = Boolean(answer.seller && 'has_logo' in answer.seller && answer.seller.has_logo);
  return (
    <Card>
      <SellerBand name={answer.seller?.name || answer.account_name || ''} logoSrc={hasLogo ? `/q/${token}/logo` : null} />
      <CardHeader className="gap-3">
        <SellerIdentity seller={answer.seller} withoutName />
        {/* The page's one h1; an h1 inside CardTitle's h3 would be invalid HTML. */}
        <h1 className="text-lg font-semibold leading-none tracking-tight">Quote {quote.quote_number}</h1>
        <CardDescription>Valid until {expiryText(quote.expires_at)}</CardDescription>
        <p className="text-sm">
          {/* A file, not a page: the browser downloads it (no client-side navigation). */}
          <a href={`/q/${token}/pdf`} className="underline underline-offset-2" download>
            {T.downloadPdf}
          </a>
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <LineItemsTable items={answer.items ?? []} currency={quote.currency} />
        <dl className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Subtotal</dt>
          <dd className="text-right">{money(quote.subtotal)}</dd>
          {quote.discount_amount > 0 ? (
            <>
              <dt className="text-muted-foreground">Discount ({Number(quote.discount)}%)</dt>
              <dd className="text-right">−{money(quote.discount_amount)}</dd>
            </>
          ) : null}
          {quote.tax_amount > 0 ? (
            <>
              <dt className="text-muted-foreground">Tax ({Number(quote.tax_rate)}%)</dt>
              <dd className="text-right">{money(quote.tax_amount)}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold" data-testid="quote-total">{money(quote.total)}</dd>
        </dl>
        {quote.notes ? (
          <div className="text-sm">
            <h2 className="font-medium">Notes</h2>
            <p className="whitespace-pre-line text-muted-foreground">{quote.notes}</p>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function AcceptForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const hydrated = useHydrated();
  const [form, fields] = useSchemaForm(acceptQuoteSchema, { id: 'accept-quote', lastResult });
  const { key: nameKey, ...nameProps } = getInputProps(fields.signer_name, { type: 'text' });
  const { key: emailKey, ...emailProps } = getInputProps(fields.signer_email, { type: 'email' });
  const { key: agreeKey, ...agreeProps } = getInputProps(fields.agree, { type: 'checkbox' });
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold">{T.acceptHeading}</h2>
        <CardDescription>{T.acceptIntro}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="accept" />
          <FormAlert id={form.errorId} title="Not signed" errors={form.errors} />
          <FormField label={T.nameLabel} htmlFor={fields.signer_name.id} errorId={fields.signer_name.errorId} errors={fields.signer_name.errors}>
            <Input key={nameKey} {...nameProps} autoComplete="name" />
          </FormField>
          <FormField label={T.emailLabel} htmlFor={fields.signer_email.id} errorId={fields.signer_email.errorId} errors={fields.signer_email.errors}>
            <Input key={emailKey} {...emailProps} autoComplete="email" />
          </FormField>
          {hydrated ? (
            <SignaturePad nameInputId={fields.signer_name.id} errorId={fields.signature.errorId} errors={fields.signature.errors} />
          ) : fields.signature.errors ? (
            <div id={fields.signature.errorId} className="text-sm text-destructive">
              {fields.signature.errors.map((e) => <p key={e}>{e}</p>)}
            </div>
          ) : null}
          <div className="grid gap-1">
            <div className="flex items-start gap-2">
              <input key={agreeKey} {...agreeProps} className="mt-1 size-4" />
              <label htmlFor={fields.agree.id} className="text-sm">
                {T.agreeLabel}
              </label>
            </div>
            <div id={fields.agree.errorId} className="text-sm text-destructive" aria-live="polite">
              {fields.agree.errors?.map((e) => <p key={e}>{e}</p>)}
            </div>
          </div>
          <SubmitButton label={T.acceptButton} busyLabel="Signing..." intent="accept" />
        </Form>
      </CardContent>
    </Card>
  );
}

function DeclineForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(declineQuoteSchema, { id: 'decline-quote', lastResult });
  const { key, ...reasonProps } = getTextareaProps(fields.decline_reason);
  // The secondary answer: a disclosure under Accept (native, so it opens without JavaScript too),
  // open again when a decline was just refused so its error shows.
  return (
    <details className="rounded-md border border-border bg-background p-4" open={lastResult ? true : undefined}>
      <summary className="cursor-pointer text-sm font-medium">{T.declineSummary}</summary>
      <div className="mt-4 grid gap-2">
        <h2 className="text-base font-semibold">{T.declineHeading}</h2>
        <p className="text-sm text-muted-foreground">{T.declineIntro}</p>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="decline" />
          <FormAlert id={form.errorId} title="Not declined" errors={form.errors} />
          <FormField label={T.reasonLabel} htmlFor={fields.decline_reason.id} errorId={fields.decline_reason.errorId} errors={fields.decline_reason.errors}>
            <Textarea key={key} {...reasonProps} rows={4} />
          </FormField>
          <div>
            <SubmitButton label={T.declineButton} busyLabel="Declining..." intent="decline" variant="outline" />
          </div>
        </Form>
      </div>
    </details>
  );
}
