// The cross-checks a template-free result is held to (issue 34, decision 082):
// the few things a right reading of an invoice always satisfies. A result that
// fails one is what the optional AI provider is asked about; a result that
// passes them all is never sent anywhere. Relative imports only: the bench and
// the unit tests load this too.
import type { DocumentFields, FieldKey } from './fields.ts';

/** The fields every business document with amounts names; one missing is a failed check. */
const CORE: FieldKey[] = ['total', 'currency', 'issue_date', 'supplier_name'];

export const cents = (value: string) => Math.round(Number(value) * 100);

/** Whether the lines' amounts sum to the subtotal or, without one, to the total (when both are known). */
export function linesAddUp(fields: DocumentFields): boolean | null {
  const items = fields.line_items?.value ?? [];
  const amounts = items.map((item) => item.amount).filter((a): a is string => a !== null && Number.isFinite(Number(a)));
  if (amounts.length === 0 || amounts.length !== items.length) return null;
  const target = fields.subtotal?.value ?? fields.total?.value;
  if (target === undefined) return null;
  const sum = amounts.reduce((s, a) => s + cents(a), 0);
  return sum === cents(target) || (fields.total !== undefined && sum === cents(fields.total.value));
}

/**
 * The checks the fields fail, as short reasons (empty: nothing to ask about).
 * A contract or a document of unknown kind is not an invoice: only its dates are checked.
 */
export function failedChecks(fields: DocumentFields): string[] {
  const failed: string[] = [];
  const kind = fields.kind?.value;
  const business = kind === 'invoice' || kind === 'receipt' || kind === 'purchase_order' || kind === 'quote';
  if (business) {
    for (const key of CORE) if (!fields[key]) failed.push(`no ${key}`);
    if (kind === 'invoice' && !fields.invoice_number) failed.push('no invoice_number');
  }
  const { total, subtotal, tax_amount: tax } = fields;
  if (total && subtotal && tax && cents(subtotal.value) + cents(tax.value) !== cents(total.value)) failed.push('subtotal + tax is not the total');
  // A total the extractor could not confirm (no subtotal and tax adding up to it) is given below 0.8.
  else if (business && total && total.confidence < 0.8) failed.push('total not confirmed');
  if (fields.issue_date && fields.due_date && fields.due_date.value < fields.issue_date.value) failed.push('due date before the issue date');
  if (linesAddUp(fields) === false) failed.push('lines do not add up');
  return failed;
}
