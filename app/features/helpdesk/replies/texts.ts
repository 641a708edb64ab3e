// What the reply tools, Compose and the canned replies say (decision 076).
export const REPLY_TOOL_TEXTS = {
  noAiProviderRanked: "Without an AI provider, Suggest reply offers your templates and canned replies most like the last message; an admin can add an 'AI replies (OpenAI-compatible)' integration in Settings → Integrations for drafts.",
  noSmsProvider: "No SMS provider configured: replies here are kept as failed until an admin adds an 'SMS and WhatsApp (Twilio)' integration in Settings → Integrations.",
  suggested: 'A suggested reply is in the box: read and edit it before you send it.',
  // Without an AI provider (decision 083): the templates and canned replies most like the customer's last message.
  ranked: 'Your templates most like the last message: insert one, then edit it before you send it.',
  noMatch: 'No template or canned reply resembles the last message',
  suggestionGone: 'That suggestion is gone',
  chooseSuggestion: 'Choose a suggestion',
  suggestionInserted: 'The suggestion is in the box: edit it before you send it.',
  inserted: 'The canned reply is in the box: edit it before you send it.',
  chooseCanned: 'Choose a canned reply',
  cannedGone: 'That canned reply is gone',
  suggestFailed: 'No suggestion this time',
  tooLong: 'A message can be at most 20,000 characters',
} as const;

export const CANNED_TEXTS = {
  title: 'Canned replies',
  description: 'Ready answers your team inserts into a reply. {{contact_name}}, {{contact_first_name}} and {{agent_name}} are filled in.',
  back: 'Back to messages',
  created: 'Canned reply created',
  updated: 'Canned reply updated',
  deleted: 'Canned reply deleted',
  failed: 'Failed to save the canned reply',
  duplicate: 'A canned reply with this name exists already',
  empty: 'No canned replies yet.',
  loadFailed: 'Failed to fetch canned replies',
} as const;

export const COMPOSE_TEXTS = {
  title: 'New conversation',
  description: 'Write to a contact by email, SMS or WhatsApp.',
  back: 'Back to messages',
  sent: 'Message sent',
  failed: 'Failed to start the conversation',
  noContacts: 'No contacts yet: add a client first.',
} as const;
