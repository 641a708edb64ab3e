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

// What a lead's page says (docs/product-guide.md, Leads: a lead's page).
export const LEAD_DETAIL_TEXTS = {
  back: 'Back to leads',
  notFound: 'Lead not found',
  editTitle: 'Edit Lead',
  editDescription: "Change the lead's details.",
  updated: 'Lead updated',
  saveFailed: 'Failed to save lead',
  statusUpdated: 'Lead status updated',
  deleteTitle: 'Delete lead',
  deleted: 'Lead deleted',
  deleteFailed: 'Failed to delete lead',
  convertFailed: 'Failed to convert lead',
} as const;

/** 'Lead Sarah Johnson created' and its link, the toast after a create. */
export const leadCreatedToast = (lead: { id: string; name: string }) => ({
  message: `Lead ${lead.name} created`,
  link: { href: `/leads/${lead.id}`, label: 'View lead' },
});

// What the Leads list's bulk action says (issue 32).
export const LEAD_BULK_TEXTS = {
  label: 'Selected leads',
  markLost: 'Mark lost',
  noneSelected: 'Select the leads to mark lost',
  invalid: 'This selection is not valid. Reload the page and try again.',
  failed: 'Failed to update leads',
  done: (count: number) => (count === 1 ? '1 lead marked lost' : `${count.toLocaleString('en-US')} leads marked lost`),
} as const;
