// /compliance (docs/product-guide.md): three sample items (category, risk level, responsible
// team, next review, status).
import type { ComplianceCategory, ComplianceStatus } from './schema';

export interface SampleComplianceItem {
  id: string;
  title: string;
  category: ComplianceCategory;
  riskLevel: 'Low' | 'Medium' | 'High';
  responsibleTeam: string;
  nextReview: string;
  status: ComplianceStatus;
}

export const SAMPLE_COMPLIANCE_ITEMS: SampleComplianceItem[] = [
  {
    id: 'cmp-1',
    title: 'GDPR Data Processing Review',
    category: 'data_protection',
    riskLevel: 'High',
    responsibleTeam: 'Legal & Privacy',
    nextReview: '2025-02-01',
    status: 'In Progress',
  },
  {
    id: 'cmp-2',
    title: 'SOX Financial Controls',
    category: 'financial',
    riskLevel: 'Medium',
    responsibleTeam: 'Finance',
    nextReview: '2025-03-15',
    status: 'Compliant',
  },
  {
    id: 'cmp-3',
    title: 'ISO 27001 Access Review',
    category: 'security',
    riskLevel: 'Low',
    responsibleTeam: 'IT Security',
    nextReview: '2025-01-25',
    status: 'Action Required',
  },
];

export const COMPLIANCE_SUMMARY = {
  score: '94%',
  scoreNote: '+2% from last quarter',
  activeRequirements: 47,
  activeNote: 'Across 6 categories',
  actionItems: 3,
  actionNote: 'Due within 30 days',
  nextAudit: '15 days',
  nextAuditNote: 'Annual SOX audit',
};
