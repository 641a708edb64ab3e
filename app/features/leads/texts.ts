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
