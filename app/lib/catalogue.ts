// The six modules as the marketing pages present them (docs/product-guide.md). The database's
// `modules` table holds the same keys with prices for the signed-in screens.
export type ModuleKey = 'helpdesk' | 'cpq' | 'logistics' | 'doc2data' | 'rfp' | 'compliance';

export interface MarketingModule {
  key: ModuleKey;
  name: string;
  summary: string;
  /** What the module does today (a preview's: what its sample screens show). */
  features: [string, string, string];
  /** Sample screens only, not yet working on an account's own data: the cards say so. */
  preview?: true;
}

export const MODULES: readonly MarketingModule[] = [
  {
    key: 'helpdesk',
    name: 'Helpdesk',
    summary: 'A shared inbox that answers customers faster.',
    features: [
      'Customer mail lands in one shared inbox, threaded',
      'Replies go out from your own mail server',
      'Assign, note internally, resolve and reopen',
    ],
  },
  {
    key: 'cpq',
    name: 'Quote to Cash (CPQ)',
    summary: 'From quote to e-signature to invoice, without the spreadsheets.',
    features: [
      'Branded quotes, signed online with a certificate',
      'Invoices, payments and reminders; UBL and Factur-X e-invoices',
      'A portal where clients sign, pay and download',
    ],
  },
  {
    key: 'logistics',
    name: 'Logistics',
    summary: 'Purchase order to shipment to delivery, tracked end to end.',
    features: ['Purchase order tracking', 'Multi-carrier shipments', 'Live delivery status'],
    preview: true,
  },
  {
    key: 'doc2data',
    name: 'Doc2Data',
    summary: 'Template-free extraction from any business document.',
    features: [
      'PDF, Word, Excel, images and pasted text',
      'Fields found without templates, shown where they were read',
      'Reviewed fields become invoices, bills or clients',
    ],
  },
  {
    key: 'rfp',
    name: 'RFP Radar',
    summary: 'Find tenders worth winning and answer them on time.',
    features: ['Tender and RFP monitoring', 'Deadline tracking', 'Reusable response library'],
    preview: true,
  },
  {
    key: 'compliance',
    name: 'Compliance',
    summary: 'A compliance calendar with a complete audit trail.',
    features: ['Review calendar and reminders', 'Risk assessments', 'Tamper-evident audit trail'],
    preview: true,
  },
];

/** What a preview module's card adds: its screens show sample data today. */
export const PREVIEW_NOTE = 'In preview: its screens show sample data while it is built.';
