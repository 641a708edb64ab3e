// /invoices (docs/product-guide.md): the four summary cards and two sample invoices.
import type { InvoiceStatus } from '../schemas/invoices';

export interface SampleInvoice {
  id: string;
  invoiceNumber: string;
  clientName: string;
  clientEmail: string;
  description: string;
  /** Integer cents (docs/product-guide.md). */
  amount: number;
  currency: 'USD' | 'EUR' | 'GBP';
  dueDate: string;
  createdAt: string;
  status: InvoiceStatus;
}

export const SAMPLE_INVOICES: SampleInvoice[] = [
  {
    id: 'inv-1',
    invoiceNumber: 'INV-2025-001',
    clientName: 'TechCorp Solutions',
    clientEmail: 'accounts@techcorp.example',
    description: 'Logistics integration setup and first month',
    amount: 1_250_000,
    currency: 'USD',
    dueDate: '2025-02-15',
    createdAt: '2025-01-15',
    status: 'paid',
  },
  {
    id: 'inv-2',
    invoiceNumber: 'INV-2025-002',
    clientName: 'Global Industries',
    clientEmail: 'finance@globalind.example',
    description: 'CPQ module subscription, Q1',
    amount: 850_000,
    currency: 'USD',
    dueDate: '2025-01-10',
    createdAt: '2024-12-10',
    status: 'overdue',
  },
];

/** The four cards (cents where money). */
export const INVOICE_SUMMARY = {
  outstandingCents: 4_525_000,
  outstandingNote: '3 invoices pending',
  paidThisMonthCents: 12_830_000,
  paidThisMonthNote: '+12% from last month',
  totalInvoices: 24,
  totalInvoicesNote: '8 this month',
  collectionRate: '94%',
  collectionRateNote: 'Average 18 days to pay',
};
