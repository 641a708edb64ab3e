// Compose a message (docs/product-guide.md): recipient and message required;
// subject required only for email.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredText, type Option } from '~/lib/schemas/fields';

export const CHANNELS = ['email', 'whatsapp', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL_LABELS: Record<Channel, string> = { email: 'Email', whatsapp: 'WhatsApp', sms: 'SMS' };
export const CHANNEL_OPTIONS: Option<Channel>[] = CHANNELS.map((value) => ({ value, label: CHANNEL_LABELS[value] }));

export const composeMessageSchema = z
  .object({
    recipient: requiredText('Recipient', 254),
    channel: oneOf(CHANNELS, 'Channel').default('email'),
    subject: optionalText('Subject', 200),
    message: requiredText('Message', 5000),
  })
  .superRefine((value, ctx) => {
    if (value.channel === 'email' && !value.subject) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'Subject is required for email' });
    }
  });

export type ComposeMessage = z.output<typeof composeMessageSchema>;
