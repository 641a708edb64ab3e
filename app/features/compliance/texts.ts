// What the Compliance screens say (docs/product-guide.md, Compliance).
export const COMPLIANCE_TEXTS = {
  title: 'Compliance',
  description: 'A compliance calendar with risk levels, owners and an audit trail.',
  newButton: 'New Assessment',
  dialogTitle: 'New Compliance Assessment',
  dialogDescription: 'Record a requirement to assess, who owns it and when it is next reviewed.',
  listHeading: 'Compliance Requirements',
  searchLabel: 'Search requirements',
  noun: 'requirements',
  created: 'Compliance assessment created successfully!',
  createFailed: 'Failed to create compliance assessment',
  loadFailed: 'Failed to fetch compliance requirements',
  empty: 'No requirements yet. Add the first obligation your account must review.',
  noMatch: 'No requirements match your search.',
  calendarHeading: 'Reviews due',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  filters: 'Filters',
  applyFilters: 'Apply filters',
} as const;

export const COMPLIANCE_DETAIL_TEXTS = {
  back: 'Back to compliance',
  notFound: 'Compliance requirement not found',
  occurrences: 'Reviews due',
  reviews: 'Reviews',
  evidence: 'Evidence',
  trail: 'Trail',
  recordReview: 'Record Review',
  reviewRecorded: 'Review recorded',
  reviewFailed: 'Failed to record the review',
  superseded: 'Superseded',
  noReviews: 'No review recorded yet.',
  noEvidence: 'No evidence yet.',
  uploadEvidence: 'Add Evidence',
  evidenceAdded: 'Evidence added',
  evidenceFailed: 'Failed to add the evidence',
  exportCsv: 'Export trail (CSV)',
  auditPackage: 'Audit package (zip)',
  readOnly: 'Your role can view these records but not change them',
} as const;

export const complianceCreatedToast = (item: { id: string; title: string }) => ({
  message: 'Compliance assessment created successfully!',
  link: { href: `/compliance/${item.id}`, label: 'View requirement' },
});
