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

/** Send test mail: queued for the jobs runner, which sends it through this integration (decision 022). */
export const testMailSchema = z.object({ intent: z.literal('test-mail'), id: uuid });

export const integrationActionSchema = z.discriminatedUnion('intent', [integrationFormSchema, setActiveSchema, deleteByIdSchema, testMailSchema]);

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
  sendsMail: 'Mail from this account is sent through this server',
  testMailQueued: 'Test mail queued: it is sent to you within a minute',
  testMailFailed: 'Failed to send test mail',
} as const;
