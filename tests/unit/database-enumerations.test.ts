// Every list of values the app offers for a column is the list the database's
// check constraint allows (read from the generated app/lib/database.types.ts):
// a status added on one side only fails here, not in production.
import { describe, expect, it } from 'vitest';
import { CheckedValues } from '../../app/lib/database.types';
import { ROLES } from '../../app/lib/roles';
import { CLIENT_STATUSES } from '../../app/features/clients/schema.ts';
import { LEAD_INTERESTS, LEAD_SOURCES, LEAD_STATUSES } from '../../app/features/leads/schema.ts';
import { QUOTE_STATUSES } from '../../app/features/quotes/schema.ts';
import { INVOICE_STATUSES, PAYMENT_METHODS } from '../../app/features/invoices/schema.ts';
import { INTEGRATION_TYPES } from '../../app/features/settings/settings-options';
import { BILL_STATUSES } from '../../app/features/bills/schema.ts';
import { RFP_DECISIONS, RFP_STATUSES } from '../../app/features/rfp/schema.ts';
import { COMPLIANCE_CATEGORIES, COMPLIANCE_STATUSES, FREQUENCIES, RISK_LEVELS } from '../../app/features/compliance/schema.ts';
import { TEMPLATE_TYPES } from '../../app/features/templates/schema';
import { DOCUMENT_MIME_TYPES, DOCUMENT_STATUSES, DOCUMENT_TYPES, EXTRACTION_STATUSES } from '../../app/features/documents/schema.ts';

// Currencies are one list checked by a function (public.is_currency), not a
// constraint's values: tests/db/currencies.test.ts compares it with the app's.
const cases: [string, readonly string[], readonly string[]][] = [
  ['users.role', ROLES, CheckedValues.users.role],
  ['user_invitations.role', ROLES, CheckedValues.user_invitations.role],
  ['contacts.status', CLIENT_STATUSES, CheckedValues.contacts.status],
  ['leads.source', LEAD_SOURCES, CheckedValues.leads.source],
  ['leads.status', LEAD_STATUSES, CheckedValues.leads.status],
  ['modules.key (lead interests)', LEAD_INTERESTS, CheckedValues.modules.key],
  ['quotes.status', QUOTE_STATUSES, CheckedValues.quotes.status],
  ['invoices.status', INVOICE_STATUSES, CheckedValues.invoices.status],
  ['payments.method', PAYMENT_METHODS, CheckedValues.payments.method],
  ['bills.status', BILL_STATUSES, CheckedValues.bills.status],
  ['rfps.status', RFP_STATUSES, CheckedValues.rfps.status],
  ['rfps.decision', RFP_DECISIONS, CheckedValues.rfps.decision],
  ['compliance_items.status', COMPLIANCE_STATUSES, CheckedValues.compliance_items.status],
  ['compliance_items.category', COMPLIANCE_CATEGORIES, CheckedValues.compliance_items.category],
  ['compliance_items.risk_level', RISK_LEVELS, CheckedValues.compliance_items.risk_level],
  ['compliance_items.frequency', FREQUENCIES, CheckedValues.compliance_items.frequency],
  ['compliance_reviews.outcome', COMPLIANCE_STATUSES, CheckedValues.compliance_reviews.outcome],
  ['templates.type', TEMPLATE_TYPES, CheckedValues.templates.type],
  ['integrations.type', INTEGRATION_TYPES, CheckedValues.integrations.type],
  ['documents.type', DOCUMENT_TYPES, CheckedValues.documents.type],
  ['documents.status', DOCUMENT_STATUSES, CheckedValues.documents.status],
  ['documents.extraction_status', EXTRACTION_STATUSES, CheckedValues.documents.extraction_status],
  ['documents.mime_type', DOCUMENT_MIME_TYPES, CheckedValues.documents.mime_type],
];

describe('the values the app offers are the values the database allows', () => {
  it.each(cases)('%s', (_column, app, database) => {
    expect([...app].sort()).toEqual([...database].sort());
  });
});
