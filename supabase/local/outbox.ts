// The mail outbox (Supabase's local Inbucket, in memory): everything the auth
// layer and the functions send is kept here and listed at GET /_outbox.
import type { MailMessage, Outbox } from './context.ts';

export function createOutbox({ quiet = false }: { quiet?: boolean } = {}): Outbox {
  let messages: MailMessage[] = [];
  return {
    async send(message) {
      const stored = { ...message, sentAt: message.sentAt ?? new Date().toISOString() };
      messages.push(stored);
      if (!quiet) console.log(`mail to ${stored.to}: ${stored.subject}`);
    },
    list: () => [...messages],
    clear() {
      messages = [];
    },
  };
}
