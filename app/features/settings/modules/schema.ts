// Module toggle (docs/product-guide.md): a subscription moves only between active and
// paused. The form says which of the two it wants, so a double submit is harmless.
import { z } from '~/lib/schemas/zod';
import { uuid } from '~/lib/schemas/fields';

export const toggleModuleSchema = z.object({
  intent: z.literal('toggle'),
  module_id: uuid,
  status: z.enum(['active', 'paused'], { error: 'Choose active or paused' }),
});

/** active → paused, anything else (trial, paused, cancelled, none) → active. */
export function nextModuleStatus(current: string | null | undefined): 'active' | 'paused' {
  return current === 'active' ? 'paused' : 'active';
}

export const MODULE_TEXTS = {
  activated: 'Module activated successfully',
  paused: 'Module paused successfully',
  failed: 'Failed to update module status',
  loadFailed: 'Failed to fetch modules',
  confirmTitle: 'Activate Module',
  confirmDescription: (name: string, monthly: string, setup: string) =>
    `Activate ${name} for ${monthly}/month, plus a one-time setup fee of ${setup}? It is billed to your account from today.`,
  confirmLabel: 'Activate',
  confirmBusy: 'Activating...',
} as const;
