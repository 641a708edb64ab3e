// The mails of a quote's public half: the link to the client, and the news of
// a signature to the account's admins. Plain text (and the same in HTML), so
// any mail client shows the link.
import { formatMoney } from '~/lib/money';
import { sellerSignatureLines, type Seller } from '~/lib/seller';

export interface QuoteMailFacts {
  accountName: string;
  quoteNumber: string;
  total: number;
  currency: string;
  expiresAt: string | null;
  /** The seller the quote was sent with: signs the mail off. */
  seller?: Seller | null;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function expiryText(expiresAt: string | null): string {
  return expiresAt
    ? new Date(expiresAt).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })
    : 'no expiry date';
}

/** The public page of a token, on the app's own origin (SITE_URL). */
export function quoteLinkUrl(siteUrl: string, token: string): string {
  return new URL(`/q/${token}`, siteUrl).toString();
}

export function quoteLinkMail(facts: QuoteMailFacts, link: string): { subject: string; text: string; html: string } {
  const total = formatMoney(facts.total, facts.currency);
  const expiry = expiryText(facts.expiresAt);
  const subject = `Quote ${facts.quoteNumber} from ${facts.accountName}`;
  const text = [
    `${facts.accountName} has sent you quote ${facts.quoteNumber} for ${total}.`,
    `It is valid until ${expiry}.`,
    '',
    `View, accept and sign, or decline it here:`,
    link,
    ...signOff(facts.seller),
  ].join('\n');
  const signature = sellerSignatureLines(facts.seller);
  const html =
    `<p>${escapeHtml(facts.accountName)} has sent you quote ${escapeHtml(facts.quoteNumber)} for ${escapeHtml(total)}.</p>` +
    `<p>It is valid until ${escapeHtml(expiry)}.</p>` +
    `<p><a href="${escapeHtml(link)}">View, accept and sign, or decline the quote</a></p>` +
    (signature.length ? `<p>${signature.map(escapeHtml).join('<br>')}</p>` : '');
  return { subject, text, html };
}

/** The seller's details under a mail's text, after a blank line. */
export function signOff(seller: Seller | null | undefined): string[] {
  const lines = sellerSignatureLines(seller);
  return lines.length ? ['', '--', ...lines] : [];
}

export function quoteAcceptedMail(facts: { quoteNumber: string; signerName: string; total: number; currency: string }) {
  const subject = `Quote ${facts.quoteNumber} was accepted by ${facts.signerName}`;
  const text = `${subject}. Total: ${formatMoney(facts.total, facts.currency)}.`;
  return { subject, text };
}

/** To the signer, with the signed PDF and its certificate attached. */
export function quoteSignedCopyMail(facts: { accountName: string; quoteNumber: string; signerName: string }) {
  const subject = `Your signed quote ${facts.quoteNumber} from ${facts.accountName}`;
  const text = [
    `Hello ${facts.signerName},`,
    '',
    `Thank you for accepting quote ${facts.quoteNumber} from ${facts.accountName}.`,
    'The signed quote is attached, with its signature certificate on the last page.',
  ].join('\n');
  return { subject, text };
}

/** To the quote's owner and the admins: the client declined, and why. */
export function quoteDeclinedMail(facts: { quoteNumber: string; clientName: string; reason: string | null }) {
  const subject = `Quote ${facts.quoteNumber} was declined by ${facts.clientName}`;
  const text = [`${subject}.`, '', facts.reason ? `Their reason: ${facts.reason}` : 'They gave no reason.'].join('\n');
  return { subject, text };
}
