// What the Clients screen says (docs/product-guide.md, Clients).
export const CLIENT_TEXTS = {
  title: 'Clients',
  description: 'The people and companies you work with.',
  newButton: 'New Client',
  dialogTitle: 'New Client',
  dialogDescription: 'Add a client contact to your account.',
  listHeading: 'Client Directory',
  searchLabel: 'Search clients',
  noun: 'clients',
  created: 'Client created successfully!',
  createFailed: 'Failed to create client',
  loadFailed: 'Failed to fetch clients',
  empty: 'No clients yet. Add your first client to get started!',
  noMatch: 'No clients match your search.',
} as const;
