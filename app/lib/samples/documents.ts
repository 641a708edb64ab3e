// /documents (docs/product-guide.md): three sample documents, one per status.
import type { DocumentStatus, DocumentType } from '../schemas/documents';

export interface SampleDocument {
  id: string;
  name: string;
  type: DocumentType;
  /** Bytes. */
  size: number;
  uploadedBy: string;
  uploadedAt: string;
  status: DocumentStatus;
}

export const SAMPLE_DOCUMENTS: SampleDocument[] = [
  {
    id: 'doc-1',
    name: 'Master Services Agreement - TechCorp.pdf',
    type: 'contract',
    size: 2_516_582,
    uploadedBy: 'Sarah Johnson',
    uploadedAt: '2025-01-15',
    status: 'Approved',
  },
  {
    id: 'doc-2',
    name: 'Q4 Financial Report.xlsx',
    type: 'financial',
    size: 1_153_434,
    uploadedBy: 'Mike Chen',
    uploadedAt: '2025-01-14',
    status: 'Pending Review',
  },
  {
    id: 'doc-3',
    name: 'Invoice INV-2025-001.pdf',
    type: 'invoice',
    size: 251_904,
    uploadedBy: 'Emma Davis',
    uploadedAt: '2025-01-13',
    status: 'Final',
  },
];

export const DOCUMENT_SUMMARY = {
  total: 1247,
  totalNote: '+89 this month',
  processed: 1189,
  processedNote: '95.3% extraction accuracy',
  pendingReview: 23,
  pendingReviewNote: 'Needs a person to check',
  storageUsed: '4.2 GB',
  storageNote: 'of 50 GB',
};
