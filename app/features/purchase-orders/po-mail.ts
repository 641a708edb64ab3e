// The mail that carries a purchase order to its supplier (decision 077):
// plain text and the same in HTML, signed off with the seller's details as a
// quote's mail is.
import { formatMoney } from '~/lib/money';
import { sellerSignatureLines, type Seller } from '~/lib/seller';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export interface PoMailFacts {
  buyerName: string;
  poNumber: string;
  supplierName: string;
  total: number;
  currency: string;
  expectedOn: string | null;
  seller: Seller | null;
}

export function purchaseOrderMail(facts: PoMailFacts): { subject: string; text: string; html: string } {
  const subject = `Purchase order ${facts.poNumber} from ${facts.buyerName}`;
  const expected = facts.expectedOn
    ? `We expect delivery by ${new Date(facts.expectedOn).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })}.`
    : null;
  const lines = [
    `Hello ${facts.supplierName},`,
    '',
    `${facts.buyerName} sends you purchase order ${facts.poNumber} for ${formatMoney(facts.total, facts.currency)}.`,
    ...(expected ? [expected] : []),
    'The order is attached as a PDF. Please confirm it.',
    '',
    ...(sellerSignatureLines(facts.seller).length ? sellerSignatureLines(facts.seller) : [facts.buyerName]),
  ];
  const text = lines.join('\n');
  const html = lines.map((line) => (line === '' ? '<br>' : `<p>${escapeHtml(line)}</p>`)).join('\n');
  return { subject, text, html };
}
