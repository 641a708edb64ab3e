import { describe, expect, it } from 'vitest';
import { composeMessageSchema } from '../../app/features/messages/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

describe('compose message form', () => {
  it('accepts an email with a subject, and an SMS without one', () => {
    expect(valueOf(composeMessageSchema, { recipient: 'a@b.test', channel: 'email', subject: 'Hi', message: 'Hello' })).toMatchObject({
      channel: 'email',
      subject: 'Hi',
    });
    expect(valueOf(composeMessageSchema, { recipient: '+1 555 0100', channel: 'sms', message: 'Hello' }).subject).toBeUndefined();
    expect(valueOf(composeMessageSchema, { recipient: '+1 555 0100', channel: 'whatsapp', subject: '', message: 'Hi' }).channel).toBe(
      'whatsapp',
    );
  });

  it('requires a subject only for email', () => {
    expect(errorsOf(composeMessageSchema, { recipient: 'a@b.test', channel: 'email', message: 'Hello' })).toEqual({
      subject: ['Subject is required for email'],
    });
  });

  it('requires the recipient and the message', () => {
    const errors = errorsOf(composeMessageSchema, { channel: 'sms', recipient: '  ', message: '' });
    expect(errors.recipient).toEqual(['Recipient is required']);
    expect(errors.message).toEqual(['Message is required']);
  });

  it('refuses a channel outside email, whatsapp and sms', () => {
    expect(errorsOf(composeMessageSchema, { recipient: 'x', channel: 'fax', message: 'Hi' }).channel).toEqual(['Choose a channel']);
  });
});
