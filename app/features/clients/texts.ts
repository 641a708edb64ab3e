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

// What a client's page says (docs/product-guide.md, Clients: a client's page).
export const CLIENT_DETAIL_TEXTS = {
  back: 'Back to clients',
  notFound: 'Client not found',
  editTitle: 'Edit Client',
  editDescription: "Change the client's details and status.",
  updated: 'Client updated',
  saveFailed: 'Failed to save client',
  deleteTitle: 'Delete client',
  deleted: 'Client deleted',
  deleteFailed: 'Failed to delete client',
  /** The database keeps a client that quotes name (a foreign key); the page says why. */
  hasQuotes: 'This client has quotes, so it cannot be deleted. Set its status to Inactive instead.',
} as const;

/** 'Client Dorothy Vaughan created' and its link, the toast after a create. */
export const clientCreatedToast = (client: { id: string; name: string }) => ({
  message: `Client ${client.name} created`,
  link: { href: `/clients/${client.id}`, label: 'View client' },
});
