// Mail safety in the database (issue 30, items 2, 4, 10; decision 039):
// - a name, address or reason that reaches a mail header holds no control
//   character, whoever writes it (the public quote page's accept and decline
//   as anon, an admin over REST, the service role); contacts.email is an address;
// - the account's mail route is explicit: one email integration at most, set
//   by an admin through set_mail_route, refused to every other role and account;
// - Send test mail: 5 an hour per account, an audit row for each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../support/accounts.ts';
import {
  addMember, anHourLater, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';

const INJECTION = 'Bob\r\nBcc: x@evil.example\r\n\r\nInjected body';

let backend: TestBackend;
let admin: Member;
let stranger: Member;
const as: Record<string, Member> = {};

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'mail-admin');
  stranger = await signUpFreshAdmin(backend, 'mail-stranger');
  for (const role of ROLES.filter((r) => r !== 'admin')) as[role] = await addMember(backend, admin, role, `mail-${role}`);
}, 120_000);
afterAll(async () => backend?.stop());

async function sentQuoteToken(): Promise<{ id: string; token: string }> {
  const service = serviceClient(backend);
  const { data: contact, error: contactError } = await service.from('contacts')
    .insert({ account_id: admin.accountId, name: 'Ada', email: 'ada@client.test' }).select('id').single();
  expect(contactError).toBeNull();
  const { data: quote, error } = await service.from('quotes')
    .insert({ account_id: admin.accountId, contact_id: contact!.id, status: 'sent', currency: 'USD' }).select('id').single();
  expect(error).toBeNull();
  const { data: token } = await service.rpc('issue_quote_link', { p_quote_id: quote!.id });
  return { id: quote!.id as string, token: token as string };
}

describe('values that reach a mail header', () => {
  it('accept_quote refuses a signer name with CR/LF (check violation, 23514), and the quote stays unsigned', async () => {
    const { id, token } = await sentQuoteToken();
    const { error } = await anonClient(backend).rpc('accept_quote', {
      p_token: token, p_name: INJECTION, p_email: 'ada@client.test',
    });
    expect(error?.code).toBe('23514');
    expect(error?.message).toContain('quotes_signer_name_no_control_chars');
    const { data } = await serviceClient(backend).from('quotes').select('status, signer_name').eq('id', id).single();
    expect(data).toEqual({ status: 'sent', signer_name: null });
  });

  it('decline_quote keeps line breaks in a reason but refuses other control characters', async () => {
    const refused = await sentQuoteToken();
    const { error } = await anonClient(backend).rpc('decline_quote', { p_token: refused.token, p_reason: 'Too dear\u0007\u001b[2J' });
    expect(error?.code).toBe('23514');
    const kept = await sentQuoteToken();
    const ok = await anonClient(backend).rpc('decline_quote', { p_token: kept.token, p_reason: 'Too dear.\r\nMaybe next year.' });
    expect(ok.error).toBeNull();
  });

  it('names, companies and addresses over REST: refused with a control character, for the admin and the service role alike', async () => {
    const service = serviceClient(backend);
    const writes = [
      admin.client.from('contacts').insert({ account_id: admin.accountId, name: INJECTION, email: 'a@b.test' }),
      admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Ada', company: 'Acme\nBcc: x@evil.example', email: 'a@b.test' }),
      admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Ada', email: 'a@b.test\r\nBcc: x@evil.example' }),
      admin.client.from('accounts').update({ name: 'Acme\r\nBcc: x@evil.example' }).eq('id', admin.accountId),
      admin.client.from('users').update({ first_name: 'Eve\r\nBcc: x@evil.example' }).eq('id', admin.userId),
      service.from('contacts').insert({ account_id: admin.accountId, name: 'Ada\u0000x', email: 'a@b.test' }),
      service.from('integrations').insert({
        account_id: admin.accountId, name: 'SMTP', type: 'email', config: { smtp_host: 'smtp.example.com', from_email: 'a@b.test\r\nBcc: x@evil.example' },
      }),
    ];
    for (const [index, write] of writes.entries()) {
      const { error } = await write;
      expect(error?.code, `write ${index}`).toMatch(/^(23514|22P05|22021)$/);
    }
    const { data: account } = await service.from('accounts').select('name').eq('id', admin.accountId).single();
    expect(account!.name).not.toContain('\n');
  });

  it('contacts.email must be an address', async () => {
    for (const email of ['not-an-address', 'a@b', 'a b@c.test', 'a@b.test, c@d.test', '<a@b.test>']) {
      const { error } = await admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Ada', email });
      expect(error?.code, email).toBe('23514');
    }
    const { error } = await admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Ada Ö', email: 'ada.o+x@mail.client.test' });
    expect(error).toBeNull();
  });

  it('every constraint is validated on a fresh database with the seed (no row breaks one)', async () => {
    const { rows } = await backend.db.query<{ conname: string }>(
      `select conname from pg_constraint where connamespace = 'public'::regnamespace and not convalidated
         and (conname like '%no_control_chars' or conname = 'contacts_email_format')`);
    expect(rows).toEqual([]);
    const { rows: all } = await backend.db.query<{ n: number }>(
      `select count(*)::int as n from pg_constraint where connamespace = 'public'::regnamespace and conname like '%no_control_chars'`);
    expect(all[0].n).toBeGreaterThanOrEqual(18);
  });
});

describe('the mail route is explicit', () => {
  async function emailIntegration(owner: Member, name: string): Promise<string> {
    const { data, error } = await owner.client.from('integrations')
      .insert({ account_id: owner.accountId, name, type: 'email', config: { smtp_host: 'smtp.example.com', smtp_port: 587 } })
      .select('id, is_default_mail_route').single();
    expect(error).toBeNull();
    // A new integration never becomes the route by itself.
    expect(data!.is_default_mail_route).toBe(false);
    return data!.id as string;
  }
  const route = async (accountId: string) =>
    ((await serviceClient(backend).from('integrations').select('id').eq('account_id', accountId).eq('is_default_mail_route', true)).data ?? []).map((r) => r.id);

  it('an admin sets and clears it; one route per account; the change is audited', async () => {
    const first = await emailIntegration(admin, 'First SMTP');
    const second = await emailIntegration(admin, 'Second SMTP');
    expect(await route(admin.accountId)).toEqual([]);
    expect((await admin.client.rpc('set_mail_route', { p_integration_id: first })).error).toBeNull();
    expect(await route(admin.accountId)).toEqual([first]);
    expect((await admin.client.rpc('set_mail_route', { p_integration_id: second })).error).toBeNull();
    expect(await route(admin.accountId)).toEqual([second]);
    const { data: audit } = await serviceClient(backend).from('audit_logs').select('action').eq('account_id', admin.accountId).eq('action', 'mail_route_changed');
    expect(audit).toHaveLength(2);
    expect((await admin.client.rpc('set_mail_route', { p_integration_id: null })).error).toBeNull();
    expect(await route(admin.accountId)).toEqual([]);
  });

  it('no API role writes the column itself; the database holds one route per account', async () => {
    const id = await emailIntegration(admin, 'Direct SMTP');
    const { error } = await admin.client.from('integrations').update({ is_default_mail_route: true }).eq('id', id);
    expect(error).not.toBeNull();
    const other = await emailIntegration(admin, 'Direct SMTP 2');
    const service = serviceClient(backend);
    expect((await service.from('integrations').update({ is_default_mail_route: true }).eq('id', id)).error).toBeNull();
    expect((await service.from('integrations').update({ is_default_mail_route: true }).eq('id', other)).error?.code).toBe('23505');
    // Made a payment integration, it is no longer the route.
    expect((await service.from('integrations').update({ type: 'payment' }).eq('id', id).select('is_default_mail_route').single()).data)
      .toEqual({ is_default_mail_route: false });
  });

  it('every other role, anon and another account are refused', async () => {
    const id = await emailIntegration(admin, 'Guarded SMTP');
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const { error } = await as[role].client.rpc('set_mail_route', { p_integration_id: id });
      expect(error?.message, role).toContain('Only an admin');
    }
    expect((await anonClient(backend).rpc('set_mail_route', { p_integration_id: id })).error).not.toBeNull();
    const { error } = await stranger.client.rpc('set_mail_route', { p_integration_id: id });
    expect(error?.message).toContain('Not an active email integration of this account');
    expect(await route(admin.accountId)).not.toContain(id);
  });
});

describe('Send test mail', () => {
  it('5 an hour per account, each audited; the sixth is refused (54000) and queues nothing', async () => {
    const owner = await signUpFreshAdmin(backend, 'test-mail-limit');
    const { data: integration } = await owner.client.from('integrations')
      .insert({ account_id: owner.accountId, name: 'SMTP', type: 'email', config: { smtp_host: 'smtp.example.com', smtp_port: 587 } })
      .select('id').single();
    for (let i = 0; i < 5; i++) {
      expect((await owner.client.rpc('request_test_mail', { p_integration_id: integration!.id })).error).toBeNull();
    }
    const sixth = await owner.client.rpc('request_test_mail', { p_integration_id: integration!.id });
    expect(sixth.error?.code).toBe('54000');
    expect(sixth.error?.message).toContain('At most 5 test mails an hour');
    const service = serviceClient(backend);
    const { count } = await service.from('jobs').select('*', { count: 'exact', head: true }).eq('account_id', owner.accountId).eq('kind', 'mail.test');
    expect(count).toBe(5);
    const { data: audit } = await service.from('audit_logs').select('action, resource_id, new_values, user_id')
      .eq('account_id', owner.accountId).eq('action', 'test_mail_requested');
    expect(audit).toHaveLength(5);
    expect(audit![0]).toMatchObject({ resource_id: integration!.id, user_id: owner.userId, new_values: { to: owner.email } });
    // Counted by private.hit_rate_limit in one-hour windows: the next hour, test mails may be sent again.
    await anHourLater(backend, `test_mail:account:${owner.accountId}`);
    expect((await owner.client.rpc('request_test_mail', { p_integration_id: integration!.id })).error).toBeNull();
    // Another account's limit is its own.
    const other = await signUpFreshAdmin(backend, 'test-mail-other');
    const { data: theirs } = await other.client.from('integrations')
      .insert({ account_id: other.accountId, name: 'SMTP', type: 'email', config: { smtp_host: 'smtp.example.com', smtp_port: 587 } })
      .select('id').single();
    expect((await other.client.rpc('request_test_mail', { p_integration_id: theirs!.id })).error).toBeNull();
  });
});
