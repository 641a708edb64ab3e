// An action taken in the app records who asked as Cloudflare saw them: the
// client's IP from CF-Connecting-IP and its user agent, passed to the
// database in a header only the Worker can sign. What a browser says about
// itself in X-Forwarded-For is not believed.
import { describe, expect, it } from 'vitest';
import { accountOf, serviceClient } from './support/backend';
import { signUpFreshAdmin } from './support/app';

const LEAD = { name: 'Ada Audit', email: 'ada@audit.test', company: 'Audit Co', phone_whatsapp: '', source: 'email' };

async function leadCreatedRow(accountId: string) {
  const { data, error } = await serviceClient()
    .from('audit_logs')
    .select('ip_address, user_agent')
    .eq('account_id', accountId)
    .eq('action', 'lead_created')
    .order('created_at', { ascending: false })
    .limit(1)
    .single();
  if (error) throw error;
  return data as { ip_address: string | null; user_agent: string | null };
}

describe("the audit log's client", () => {
  it("records the caller's IP from CF-Connecting-IP and its user agent", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const response = await visitor.post('/leads?new', LEAD, {
      'CF-Connecting-IP': '203.0.113.42',
      'User-Agent': 'Mozilla/5.0 (Audit test browser)',
      'X-Forwarded-For': '=HYPERLINK("http://evil.test")',
    });
    expect(response.status).toBe(302);
    expect(await leadCreatedRow(accountId)).toEqual({ ip_address: '203.0.113.42', user_agent: 'Mozilla/5.0 (Audit test browser)' });
  });

  it('stores no IP when Cloudflare gave none, whatever the browser claims, and a long user agent cut to 512 characters', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const response = await visitor.post('/leads?new', LEAD, {
      'CF-Connecting-IP': '=HYPERLINK("http://evil.test")',
      'X-Forwarded-For': '6.6.6.6',
      'User-Agent': 'U'.repeat(2000),
    });
    expect(response.status).toBe(302);
    const row = await leadCreatedRow(accountId);
    expect(row.ip_address).toBeNull();
    expect(row.user_agent).toBe('U'.repeat(512));
  });
});
