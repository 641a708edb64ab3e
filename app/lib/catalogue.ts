// The six modules as the marketing pages present them (docs/product-guide.md). The database's
// `modules` table holds the same keys with prices for the signed-in screens.
export type ModuleKey = 'helpdesk' | 'cpq' | 'logistics' | 'doc2data' | 'rfp' | 'compliance';

export interface MarketingModule {
  key: ModuleKey;
  name: string;
  summary: string;
  features: [string, string, string];
}

export const MODULES: readonly MarketingModule[] = [
  {
    key: 'helpdesk',
    name: 'Helpdesk',
    summary: 'A multi-channel inbox that answers customers faster.',
    features: ['Email, WhatsApp and SMS in one inbox', 'AI-drafted replies', 'SLA timers and analytics'],
  },
  {
    key: 'cpq',
    name: 'Quote to Cash (CPQ)',
    summary: 'From quote to e-signature to invoice, without the spreadsheets.',
    features: ['Branded quotes in minutes', 'E-signature built in', 'One-click invoicing'],
  },
  {
    key: 'logistics',
    name: 'Logistics',
    summary: 'Purchase order to shipment to delivery, tracked end to end.',
    features: ['Purchase order tracking', 'Multi-carrier shipments', 'Live delivery status'],
  },
  {
    key: 'doc2data',
    name: 'Doc2Data',
    summary: 'Template-free extraction from any business document.',
    features: ['Invoices, contracts and forms', 'No templates to maintain', 'Export to your systems'],
  },
  {
    key: 'rfp',
    name: 'RFP Radar',
    summary: 'Find tenders worth winning and answer them on time.',
    features: ['Tender and RFP monitoring', 'Deadline tracking', 'Reusable response library'],
  },
  {
    key: 'compliance',
    name: 'Compliance',
    summary: 'A compliance calendar with a complete audit trail.',
    features: ['Review calendar and reminders', 'Risk assessments', 'Tamper-evident audit trail'],
  },
];
