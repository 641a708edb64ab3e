// What the Templates screen says (docs/product-guide.md, Settings: Templates).
export const TEMPLATE_TEXTS = {
  created: 'Template created successfully',
  updated: 'Template updated successfully',
  deleted: 'Template deleted successfully',
  saveFailed: 'Failed to save template',
  deleteFailed: 'Failed to delete template',
  loadFailed: 'Failed to fetch templates',
  title: 'Templates',
  description: 'Reusable texts for emails, quotes, invoices and contracts.',
  newButton: 'New Template',
  noun: 'Template',
  emptyTitle: 'No templates yet',
  emptyHint: 'Create your first template to reuse it in quotes and emails.',
} as const;
