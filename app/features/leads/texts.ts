// What the Leads screen says (docs/product-guide.md, Leads).
export const LEAD_TEXTS = {
  title: 'Leads',
  description: 'Capture and follow up the people interested in your modules.',
  newButton: 'New Lead',
  dialogTitle: 'New Lead',
  dialogDescription: 'Add a lead to follow up.',
  listHeading: 'Recent Leads',
  searchLabel: 'Search leads',
  noun: 'leads',
  created: 'Lead created successfully!',
  createFailed: 'Failed to create lead',
  loadFailed: 'Failed to fetch leads',
  empty: 'No leads yet. Add your first lead to get started!',
  noMatch: 'No leads match your search.',
} as const;
