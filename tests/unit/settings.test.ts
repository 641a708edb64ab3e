// The settings screens' pure pieces: secrets masking, the audit log's reading
// and CSV, and the forms' schemas (docs/product-guide.md).
import { describe, expect, it } from 'vitest';
import { auditChanges, auditCsv, formatAuditValue, recordLabel, resourceIdPreview, titleCaseAction, type AuditEntry } from '../../app/features/settings/audit-logs/audit.ts';
import { csvField } from '../../app/lib/csv.ts';
import { auditTone } from '../../app/lib/tones.ts';
import { readAuditQuery } from '../../app/features/settings/audit-logs/schema.ts';
import { integrationFormSchema, SECRET_FIELD_NAMES, typedDefaults } from '../../app/features/settings/integrations/schema.ts';
import { nextModuleStatus } from '../../app/features/settings/modules/schema.ts';
import { contentPreview, templateFormSchema } from '../../app/features/templates/schema.ts';
import { inviteUserSchema } from '../../app/features/settings/users/schema.ts';
import { prefillConfig, withCurrent } from '../../app/features/settings/settings-options.ts';
import { blankMaskedSecrets, blankSecrets, maskConfig, SECRET_MASK } from '../../app/features/settings/integrations/settings-secrets.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

function parserMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('valid JSON');
}

describe('integration secrets', () => {
  it('shows a set secret as the mask and an unset one blank, nested too, from what is set rather than the value', () => {
    const config = { smtp_host: 'h', smtp_pass: '', private_key: '', nested: { api_key: '', authorization: '' }, port: 587 };
    const secretsSet = { smtp_pass: true, nested: { api_key: true }, signing_key: true };
    expect(maskConfig(config, secretsSet)).toEqual({
      smtp_host: 'h',
      smtp_pass: SECRET_MASK,
      private_key: '',
      nested: { api_key: SECRET_MASK, authorization: '' },
      port: 587,
      signing_key: SECRET_MASK,
    });
    // Even a value that somehow reached the config is never shown.
    expect(maskConfig({ api_key: 'sk_live_leaked' }, {})).toEqual({ api_key: '' });
  });

  it('sends a secret left as the mask as blank (keep what is stored), and a retyped one as typed', () => {
    const submitted = { api_key: SECRET_MASK, webhook_secret: 'whsec_new', currency: 'EUR', nested: { pass: SECRET_MASK } };
    expect(blankMaskedSecrets(submitted)).toEqual({ api_key: '', webhook_secret: 'whsec_new', currency: 'EUR', nested: { pass: '' } });
    // The mask in a field that is no secret is just text.
    expect(blankMaskedSecrets({ note: SECRET_MASK })).toEqual({ note: SECRET_MASK });
  });
});

describe('audit log reading', () => {
  it('title-cases actions, colours them as docs/product-guide.md says and previews ids by 8 characters', () => {
    expect(titleCaseAction('user_role_updated')).toBe('User Role Updated');
    expect(['user_invited', 'invitation_accepted', 'user_role_updated', 'user_deactivated', 'quote_created', 'quote_updated', 'lead_created'].map(auditTone)).toEqual([
      'green',
      'green',
      'blue',
      'red',
      'purple',
      'purple',
      'outline',
    ]);
    expect(resourceIdPreview('0123456789abcdef')).toBe('01234567');
    expect(resourceIdPreview(null)).toBe('—');
  });

  it('reads the search and a well-formed action from the URL only', () => {
    expect(readAuditQuery(new URLSearchParams('q=  role  &action=user_invited'))).toEqual({ q: 'role', action: 'user_invited', page: 1 });
    expect(readAuditQuery(new URLSearchParams('action=DROP TABLE'))).toEqual({ q: '', action: '', page: 1 });
    expect(readAuditQuery(new URLSearchParams('page=3')).page).toBe(3);
    expect(readAuditQuery(new URLSearchParams('page=-2')).page).toBe(1);
    expect(readAuditQuery(new URLSearchParams('page=x')).page).toBe(1);
    expect(readAuditQuery(new URLSearchParams('page=99999')).page).toBe(500);
    expect(readAuditQuery(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
  });

  it('writes RFC 4180 CSV and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    expect(csvField({ role: 'client' })).toBe('"{""role"":""client""}"');
    const entry: AuditEntry = {
      id: 'e',
      action: 'user_role_updated',
      resource_type: 'user',
      resource_id: 'r-1',
      record_name: 'Ada',
      old_values: { role: 'client' },
      new_values: { role: 'auditor' },
      ip_address: '',
      user_agent: null,
      created_at: '2026-01-01T00:00:00Z',
      user_email: 'a@b.test',
      user_first_name: 'Ada',
      user_last_name: null,
    };
    expect(auditCsv([entry])).toBe(
      'created_at,action,resource_type,resource_id,user_name,user_email,ip_address,user_agent,old_values,new_values\r\n' +
        '2026-01-01T00:00:00Z,user_role_updated,user,r-1,Ada,a@b.test,,,"{""role"":""client""}","{""role"":""auditor""}"\r\n',
    );
  });
});

describe('settings forms', () => {
  it('template: email by default, variables JSON or null, the parser message otherwise', () => {
    expect(valueOf(templateFormSchema, { intent: 'save', name: 'N', content: 'C' })).toMatchObject({ type: 'email', variables: null });
    expect(valueOf(templateFormSchema, { intent: 'save', name: 'N', content: 'C', variables: '{"a": 1}' }).variables).toEqual({ a: 1 });
    expect(errorsOf(templateFormSchema, { intent: 'save', name: 'N', content: 'C', variables: '{a}' })).toEqual({ variables: [parserMessage('{a}')] });
    expect(errorsOf(templateFormSchema, { intent: 'save', type: 'memo' })).toMatchObject({
      name: ['Name is required'],
      content: ['Content is required'],
      type: ['Choose a type'],
    });
  });

  it('integration: config required, a JSON object, the parser message otherwise', () => {
    expect(valueOf(integrationFormSchema, { intent: 'save', name: 'N', type: 'crm', config: prefillConfig('crm') }).config).toEqual({
      api_url: '',
      api_key: '',
      sync_interval: 'daily',
    });
    expect(errorsOf(integrationFormSchema, { intent: 'save', name: 'N', type: 'crm', config: '' })).toEqual({ config: ['Config is required'] });
    expect(errorsOf(integrationFormSchema, { intent: 'save', name: 'N', type: 'crm', config: '"text"' })).toEqual({
      config: ['Config must be a JSON object'],
    });
    expect(errorsOf(integrationFormSchema, { intent: 'save', name: 'N', type: 'crm', config: '{' })).toEqual({ config: [parserMessage('{')] });
  });

  it('integration: typed fields of the chosen type only, a port from 1 to 65535, an email from address', () => {
    const typed = {
      intent: 'save',
      name: 'N',
      type: 'email',
      editor: 'fields',
      'email.smtp_host': 'smtp.test',
      'email.smtp_port': '465',
      'email.smtp_password': 'pw',
      'payment.api_key': 'ignored',
    };
    expect(valueOf(integrationFormSchema, typed).config).toEqual({
      smtp_host: 'smtp.test',
      smtp_port: 465,
      smtp_user: '',
      smtp_password: 'pw',
      from_email: '',
    });
    expect(errorsOf(integrationFormSchema, { ...typed, 'email.smtp_port': '0', 'email.from_email': 'x' })).toEqual({
      'email.smtp_port': ['Port must be a whole number from 1 to 65535'],
      'email.from_email': ['Enter a valid email address'],
    });
    expect(errorsOf(integrationFormSchema, { ...typed, type: 'crm', 'crm.api_url': 'ftp://x' })).toEqual({
      'crm.api_url': ['Enter a URL starting with https://'],
    });
    // The JSON editor wins when chosen, whatever the fields say.
    expect(valueOf(integrationFormSchema, { ...typed, editor: 'json', config: '{"a": 1}' }).config).toEqual({ a: 1 });
    expect(errorsOf(integrationFormSchema, { ...typed, editor: 'json' })).toEqual({ config: ['Config is required'] });
  });

  it('integration: secret fields are never prefilled, other fields start from the stored config or the prefill', () => {
    expect(SECRET_FIELD_NAMES).toEqual(
      expect.arrayContaining(['email.smtp_password', 'payment.api_key', 'payment.webhook_secret', 'crm.api_key', 'storage.access_key', 'storage.secret_key']),
    );
    expect(SECRET_FIELD_NAMES).not.toContain('email.smtp_user');
    expect(typedDefaults('email', null)).toEqual({ smtp_host: '', smtp_port: '587', smtp_user: '', from_email: '' });
    expect(typedDefaults('email', { smtp_host: 'h', smtp_password: 'never' })).toEqual({ smtp_host: 'h', smtp_port: '', smtp_user: '', from_email: '' });
    expect(blankSecrets({ api_key: 'sk', currency: 'EUR', nested: { token: 't' } })).toEqual({ api_key: '', currency: 'EUR', nested: { token: '' } });
  });

  it('invite: an email is required and the role defaults to member', () => {
    expect(valueOf(inviteUserSchema, { intent: 'invite', email: 'a@b.test' }).role).toBe('member');
    expect(errorsOf(inviteUserSchema, { intent: 'invite' })).toEqual({ email: ['Email is required'] });
    expect(errorsOf(inviteUserSchema, { intent: 'invite', email: 'x', role: 'owner' })).toEqual({
      email: ['Enter a valid email address'],
      role: ['Choose a role'],
    });
  });

  it('module toggle: active becomes paused, anything else active', () => {
    expect([null, 'active', 'paused', 'trial', 'cancelled'].map(nextModuleStatus)).toEqual(['active', 'paused', 'active', 'active', 'active']);
  });

  it('previews 200 characters and keeps a stored option a select does not list', () => {
    expect(contentPreview('a'.repeat(200))).toBe('a'.repeat(200));
    expect(contentPreview(`${'a'.repeat(200)}bcd`)).toBe('a'.repeat(200));
    expect(withCurrent([{ value: 'UTC', label: 'UTC' }], 'Asia/Dubai')).toEqual([
      { value: 'UTC', label: 'UTC' },
      { value: 'Asia/Dubai', label: 'Asia/Dubai' },
    ]);
  });
});

describe('audit entries as the table shows them', () => {
  it("names the record by kind and name ('lead Sarah Johnson'), a client by that word, else by its id's first 8 characters", () => {
    expect(recordLabel({ resource_type: 'lead', record_name: 'Sarah Johnson', resource_id: 'x' })).toBe('lead Sarah Johnson');
    expect(recordLabel({ resource_type: 'contact', record_name: 'Acme', resource_id: 'x' })).toBe('client Acme');
    expect(recordLabel({ resource_type: 'user_invitation', record_name: 'a@b.test', resource_id: 'x' })).toBe('invitation a@b.test');
    expect(recordLabel({ resource_type: 'lead', record_name: null, resource_id: '0123456789abcdef' })).toBe('lead 01234567');
  });

  it('lists changed fields before → after, leaving out bookkeeping and unchanged fields', () => {
    expect(
      auditChanges({
        old_values: { role: 'client', email: 'a@b.test', updated_at: '1' },
        new_values: { role: 'auditor', email: 'a@b.test', updated_at: '2' },
      }),
    ).toEqual([{ field: 'role', before: 'client', after: 'auditor' }]);
    // A creation has nothing before; a deletion nothing after.
    expect(auditChanges({ old_values: null, new_values: { id: 'x', name: 'Sarah', notes: '' } })).toEqual([
      { field: 'name', before: null, after: 'Sarah' },
    ]);
    expect(auditChanges({ old_values: { name: 'Sarah' }, new_values: null })).toEqual([{ field: 'name', before: 'Sarah', after: null }]);
  });

  it('shows long and capped values short', () => {
    expect(formatAuditValue('x'.repeat(200))).toHaveLength(80);
    expect(formatAuditValue({ truncated: true, length: 5000, sha256: 'ab' })).toBe('(long text, 5,000 characters)');
    expect(formatAuditValue(587)).toBe('587');
    expect(formatAuditValue(null)).toBeNull();
  });
});
