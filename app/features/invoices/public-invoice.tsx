// An invoice's public view (/i/:token), the link of its mail: no sign-in,
// read-only, never indexed or cached. The token is looked up by its hash
// (public_invoice); one that matches nothing, or a draft or void invoice, is a 404.
// The database counts the link's uses per client and token (decision 043): too
// many in a minute is a 429 that says to wait.
import { data, isRouteErrorResponse, useRouteError } from 'react-router';
import type { Route } from './+types/public-invoice';
import { LineItemsTable } from '~/components/records/line-items-table';
import { brandStyle, SellerBand } from '~/components/records/seller-band';
import { SellerIdentity } from '~/components/records/seller-identity';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatShortDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { accentColor, sellerBankLines, sellerForPage, type PageSeller } from '~/lib/seller';
import { BRAND_NAME } from '~/lib/site';
import { getRequestSupabase } from '~/lib/supabase.server';

interface PublicInvoice {
  account_name: string;
  /** The seller the invoice was sent with (decision 045), as a page gets it (decision 051). */
  seller: PageSeller | null;
  invoice_number: string;
  status: string;
  client_name: string;
  currency: string;
  subtotal: number;
  discount_amount: number;
  tax: number;
  total: number;
  amount_paid: number;
  due_date: string;
  created_at: string;
  notes: string | null;
  items: { description: string; qty: number; unit_price: number; total: number }[];
}

const TOO_MANY = 'Too many requests for this link. Try again in a minute.';

const PRIVATE_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow', 'Referrer-Policy': 'no-referrer' };

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData && 'invoice' in loaderData ? `Invoice ${loaderData.invoice.invoice_number} — ${BRAND_NAME}` : `Invoice not found — ${BRAND_NAME}` },
  { name: 'robots', content: 'noindex, nofollow' },
];

// A refusal's own headers (a 429's Retry-After) when the loader threw one; each carries PRIVATE_HEADERS.
export const headers: Route.HeadersFunction = ({ errorHeaders }) => errorHeaders ?? PRIVATE_HEADERS;

export async function loader({ params, context }: Route.LoaderArgs) {
  const token = params.token ?? '';
  const { supabase } = getRequestSupabase(context);
  const { data: found, error } = await supabase.rpc('public_invoice', { p_token: token });
  if (error) console.error(`public invoice failed to load: ${error.message}`);
  if (found && typeof found === 'object' && 'rate_limited' in found) {
    throw data({ error: TOO_MANY }, { status: 429, headers: { ...PRIVATE_HEADERS, 'Retry-After': '60' } });
  }
  if (!found || typeof found !== 'object') {
    throw data({ error: 'Invoice not found' }, { status: 404, headers: PRIVATE_HEADERS });
  }
  const invoice = found as unknown as PublicInvoice;
  // The page is told whether there is a logo (shown through /i/:token/logo), not where it is stored.
  const seller = sellerForPage(invoice.seller);
  return data(
    { invoice: { ...invoice, seller }, pdfHref: `/i/${token}/pdf`, logoSrc: seller?.has_logo ? `/i/${token}/logo` : null },
    { headers: PRIVATE_HEADERS },
  );
}

export default function PublicInvoicePage({ loaderData }: Route.ComponentProps) {
  const { invoice, pdfHref, logoSrc } = loaderData;
  const money = (cents: number) => formatMoney(Number(cents), invoice.currency);
  const balance = Number(invoice.total) - Number(invoice.amount_paid);
  const accent = accentColor(invoice.seller);
  const bank = invoice.seller ? sellerBankLines(invoice.seller) : [];
  return (
    // The seller's accent is the page's primary colour: the brand band.
    <main className="mx-auto grid max-w-3xl gap-6 p-4 sm:p-8" style={brandStyle(accent)}>
      <Card>
        <SellerBand name={invoice.seller?.name || invoice.account_name} logoSrc={logoSrc} />
        <CardHeader className="gap-2">
          <SellerIdentity seller={invoice.seller} withoutName />
          <div className="flex flex-wrap items-center gap-3">
            {/* The page's own h1 with the card title's look: an h1 inside CardTitle's h3 is no valid
                HTML, the browser's parser splits them, and React's hydration then fails on the page. */}
            <h1 className="text-lg font-semibold leading-none tracking-tight">Invoice {invoice.invoice_number}</h1>
            <StatusBadge status={invoice.status} />
          </div>
          <p className="text-sm">
            For {invoice.client_name} · Issued {formatShortDate(invoice.created_at)} · Due {formatShortDate(invoice.due_date)}
          </p>
          <p className="text-sm">
            {/* A file, not a page: the browser downloads it (no client-side navigation). */}
            <a href={pdfHref} className="underline underline-offset-2">
              Download PDF
            </a>
          </p>
        </CardHeader>
        <CardContent className="grid gap-4 overflow-x-auto">
          <LineItemsTable items={invoice.items} currency={invoice.currency} caption="Items" />
          <dl className="ml-auto grid max-w-xs grid-cols-2 gap-y-1 text-sm">
            <dt>Subtotal</dt>
            <dd className="text-right">{money(invoice.subtotal)}</dd>
            {invoice.discount_amount > 0 ? (
              <>
                <dt>Discount</dt>
                <dd className="text-right">−{money(invoice.discount_amount)}</dd>
              </>
            ) : null}
            <dt>Tax</dt>
            <dd className="text-right">{money(invoice.tax)}</dd>
            <dt className="font-semibold">Total</dt>
            <dd className="text-right font-semibold">{money(invoice.total)}</dd>
            <dt>Paid</dt>
            <dd className="text-right">{money(invoice.amount_paid)}</dd>
            <dt className="font-semibold">Balance due</dt>
            <dd className="text-right font-semibold">{money(balance)}</dd>
          </dl>
          {invoice.notes ? <p className="whitespace-pre-line text-sm text-muted-foreground">{invoice.notes}</p> : null}
          {invoice.seller?.payment_terms || bank.length > 0 ? (
            <section className="grid gap-1 text-sm" aria-labelledby="invoice-payment">
              <h2 id="invoice-payment" className="font-medium">Payment</h2>
              {invoice.seller?.payment_terms ? <p className="whitespace-pre-line break-words">{invoice.seller.payment_terms}</p> : null}
              {bank.map((line) => (
                <p key={line} className="break-words text-muted-foreground">{line}</p>
              ))}
            </section>
          ) : null}
        </CardContent>
      </Card>
    </main>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 429) {
    return (
      <main className="mx-auto grid max-w-xl gap-2 p-8 text-center">
        <h1 className="text-2xl font-semibold">Too many requests</h1>
        <p className="text-muted-foreground">{TOO_MANY}</p>
      </main>
    );
  }
  return (
    <main className="mx-auto grid max-w-xl gap-2 p-8 text-center">
      <h1 className="text-2xl font-semibold">Invoice not found</h1>
      <p className="text-muted-foreground">This link matches no invoice. Ask the sender for a new one.</p>
    </main>
  );
}
