import { beforeAll, describe, expect, it } from 'vitest';
import { pageText, type Visitor } from './support/app';
import {
  control,
  demoAdmin,
  expectCreated,
  expectRefused,
  invalidFields,
  page,
  readable,
  selectedOption,
  without,
} from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const email = { recipient: 'sarah@techcorp.example', channel: 'email', subject: 'Customs', message: 'Yes, included.' };

describe('/messages', () => {
  it('shows the two sample messages with their channel badges, the unread marker and the senders', async () => {
    const html = await page(visitor, '/messages');
    const text = readable(html);
    expect(text).toContain('Sarah Johnson Email Sample Unread');
    expect(text).toContain('Mike Chen WhatsApp Sample Replied');
    expect(html.match(/data-unread="true"/g)).toHaveLength(1);
    expect(html.match(/data-channel="(email|whatsapp|sms)"/g)).toEqual(['data-channel="email"', 'data-channel="whatsapp"']);
    expect(text).toContain('Question about the logistics quote');
  });

  it('opens Compose at /messages?new with the channels Email, WhatsApp and SMS', async () => {
    const html = await page(visitor, '/messages?new');
    expect(html).toContain('role="dialog"');
    expect(readable(html)).toContain('Compose Message');
    expect(selectedOption(html, 'channel')).toBe('email');
    for (const option of ['>Email<', '>WhatsApp<', '>SMS<']) expect(html).toContain(option);
    expect(control(html, 'subject')).not.toContain('required');
  });

  it("sends and says 'Message sent via' the channel", async () => {
    await expectCreated(visitor, '/messages?new', email, '/messages', 'Message sent via Email');
    await expectCreated(
      visitor,
      '/messages?new',
      { recipient: '+1 555 0100', channel: 'sms', subject: '', message: 'On our way' },
      '/messages',
      'Message sent via SMS',
    );
  });

  it('requires a subject for email only, and the recipient and message always', async () => {
    const path = '/messages?new';
    await expectRefused(visitor, path, without(email, 'subject'), 'subject', 'Subject is required for email');
    await expectRefused(visitor, path, without(email, 'recipient'), 'recipient', 'Recipient is required');
    await expectRefused(visitor, path, { ...email, message: '   ' }, 'message', 'Message is required');
    await expectRefused(visitor, path, { ...email, channel: 'fax' }, 'channel', 'Choose a channel');
    const whatsapp = await visitor.post(path, { ...without(email, 'subject'), channel: 'whatsapp', message: '' });
    expect(whatsapp.status).toBe(400);
    expect(invalidFields(await pageText(whatsapp))).toEqual(['message']);
  });
});
