// The invitation mail's subject carries an account name an admin chose freely:
// one line, no control characters, at most 60 characters of it.
import { describe, expect, it } from 'vitest';
import { invitationMessage, SUBJECT_NAME_MAX, subjectSafeName } from '../../supabase/functions/_shared/mail';

describe('the invitation subject', () => {
  it('keeps an ordinary account name as it is', () => {
    expect(subjectSafeName('Northwind Traders')).toBe('Northwind Traders');
  });

  it('joins every kind of line break, tab and control or format character into single spaces', () => {
    expect(subjectSafeName('Acme\r\nBcc: x@evil.example\u2028\u0085\u200b\u0007 Corp\t')).toBe('Acme Bcc: x@evil.example Corp');
  });

  it('cuts a long name at 60 characters with an ellipsis, never inside a surrogate pair', () => {
    const cut = subjectSafeName(`${'😀'.repeat(40)}${'a'.repeat(40)}`);
    expect(Array.from(cut)).toHaveLength(SUBJECT_NAME_MAX);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('falls back to the product name when nothing printable is left', () => {
    expect(subjectSafeName('\n\r\t')).toBe('OpsHub');
  });

  it('is what the mail uses, while the body keeps the full name (escaped in HTML)', () => {
    const mail = invitationMessage({
      to: 'a@b.test', inviterName: 'Ann', accountName: 'Evil\nCo <b>', role: 'member', link: 'http://x/invite/t', expiresAt: '2030-01-01T00:00:00Z',
    });
    expect(mail.subject).toBe("You're invited to join Evil Co <b>");
    expect(mail.html).toContain('Evil\nCo &#60;b&#62;');
  });

  it('says who invited them to which company, escaping the inviter name in HTML', () => {
    const mail = invitationMessage({
      to: 'a@b.test', inviterName: 'Ann <Admin>', accountName: 'Northwind', role: 'member', link: 'http://x/invite/t', expiresAt: '2030-01-01T00:00:00Z',
    });
    expect(mail.text).toContain('Ann <Admin> has invited you to join Northwind on OpsHub Pro as member.');
    expect(mail.html).toContain('Ann &#60;Admin&#62; has invited you to join <strong>Northwind</strong>');
  });
});
