// What the helpdesk screens say (decision 060): the inbox and a conversation.
export const INBOX_TEXTS = {
  title: 'Messages',
  description: 'One inbox for the mail your customers send.',
  listHeading: 'Inbox',
  searchLabel: 'Search messages',
  noun: 'conversations',
  loadFailed: 'Failed to fetch messages',
  empty: 'No messages yet. Mail sent to your inbound address appears here.',
  noMatch: 'No conversations match your search.',
} as const;

export const CONVERSATION_TEXTS = {
  back: 'Back to messages',
  notFound: 'Conversation not found',
  replied: 'Reply sent',
  noted: 'Note added',
  saved: 'Conversation updated',
  resolved: 'Conversation resolved',
  reopened: 'Conversation reopened',
  failed: 'Failed to update conversation',
  replyFailed: 'Failed to send reply',
} as const;

export const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  { value: 'resolved', label: 'Resolved' },
] as const;
export const CHANNEL_OPTIONS = [
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
  { value: 'whatsapp', label: 'WhatsApp' },
] as const;
export const PRIORITY_OPTIONS = [
  { value: 'low', label: 'Low' },
  { value: 'normal', label: 'Normal' },
  { value: 'high', label: 'High' },
  { value: 'urgent', label: 'Urgent' },
] as const;
export const WHO_OPTIONS = [
  { value: 'mine', label: 'Mine' },
  { value: 'unassigned', label: 'Unassigned' },
] as const;

export const STATUSES = STATUS_OPTIONS.map((o) => o.value);
export const CHANNELS = CHANNEL_OPTIONS.map((o) => o.value);
export const PRIORITIES = PRIORITY_OPTIONS.map((o) => o.value);

export const labelOf = (options: readonly { value: string; label: string }[], value: string) =>
  options.find((o) => o.value === value)?.label ?? value;
