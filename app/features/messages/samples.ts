// /messages (docs/product-guide.md): two sample messages of the unified inbox. Not loaded
// from data: the messages screen is a demonstration page.
import type { Channel } from './schema';

export type MessageStatus = 'unread' | 'replied';

export interface SampleMessage {
  id: string;
  sender: string;
  senderContact: string;
  channel: Channel;
  subject: string | null;
  preview: string;
  receivedAt: string;
  status: MessageStatus;
}

export const SAMPLE_MESSAGES: SampleMessage[] = [
  {
    id: 'msg-1',
    sender: 'Sarah Johnson',
    senderContact: 'sarah@techcorp.example',
    channel: 'email',
    subject: 'Question about the logistics quote',
    preview: 'Hi, could you confirm whether the quote includes customs clearance for the Rotterdam leg?',
    receivedAt: '2025-01-15T09:24:00Z',
    status: 'unread',
  },
  {
    id: 'msg-2',
    sender: 'Mike Chen',
    senderContact: '+1 555 0142',
    channel: 'whatsapp',
    subject: null,
    preview: 'Thanks for the update! The delivery window on Thursday works for us.',
    receivedAt: '2025-01-14T16:05:00Z',
    status: 'replied',
  },
];

export const MESSAGE_STATS = {
  unread: 1,
  totalToday: 12,
  averageResponse: '2.4h',
  channels: 3,
};
