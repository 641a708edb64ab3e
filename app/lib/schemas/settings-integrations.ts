// Integrations (docs/product-guide.md): name and config required; config is a JSON
// object prefilled per type (docs/product-guide.md).
import { z } from './zod';
import { INTEGRATION_TYPES } from '../settings-options';
import { deleteByIdSchema, jsonText, requiredText, setActiveSchema, uuid } from './fields';

export const integrationFormSchema = z.object({
  intent: z.literal('save'),
  id: uuid.optional(),
  name: requiredText('Name'),
  type: z.enum(INTEGRATION_TYPES, { error: 'Choose a type' }),
  config: jsonText('Config', { required: true, objectOnly: true }),
});

export const integrationActionSchema = z.discriminatedUnion('intent', [integrationFormSchema, setActiveSchema, deleteByIdSchema]);

export const INTEGRATION_TEXTS = {
  created: 'Integration created successfully',
  updated: 'Integration updated successfully',
  deleted: 'Integration deleted successfully',
  activated: 'Integration activated successfully',
  deactivated: 'Integration deactivated successfully',
  saveFailed: 'Failed to save integration',
  deleteFailed: 'Failed to delete integration',
  statusFailed: 'Failed to update integration status',
  loadFailed: 'Failed to fetch integrations',
} as const;
