// How a history names who acted (issue 31): a person by name, a client by
// name and email with 'client', the jobs runner as 'System', a deleted user as
// 'a former user'.
import { describe, expect, it } from 'vitest';
import { auditUserEmail, auditUserName } from '../../app/features/settings/audit-logs/audit.ts';
import { historyActor, type HistoryEntry } from '../../app/lib/record-history.ts';

const entry = (changes: Partial<HistoryEntry>): HistoryEntry => ({
  id: '1', action: 'quote_signed', at: '2026-11-24T00:00:00Z', actor: null, actorKind: null, actorEmail: null,
  oldValues: {}, newValues: {}, ...changes,
});

describe('historyActor', () => {
  it('names each kind of actor', () => {
    expect(historyActor(entry({ actor: 'Dana Demo', actorKind: 'user' }))).toBe('Dana Demo');
    expect(historyActor(entry({ actor: 'Ada Client', actorKind: 'client', actorEmail: 'ada@client.test' }))).toBe('Ada Client (ada@client.test), client');
    expect(historyActor(entry({ actor: null, actorKind: 'client', actorEmail: 'ada@client.test' }))).toBe('ada@client.test, client');
    expect(historyActor(entry({ actor: null, actorKind: 'client' }))).toBe('The client, client');
    expect(historyActor(entry({ actor: 'System', actorKind: 'system' }))).toBe('System');
    expect(historyActor(entry({ actor: null, actorKind: 'user' }))).toBe('a former user');
    expect(historyActor(entry({}))).toBe('a former user');
  });
});

describe('the audit log screen', () => {
  const row = { user_first_name: null, user_last_name: null, user_email: null, actor_kind: null, actor_name: null, actor_email: null };
  it('names a user, a client, the system and a former user', () => {
    expect(auditUserName({ ...row, user_first_name: 'Dana', user_last_name: 'Demo', user_email: 'demo@opshub.test', actor_kind: 'user' })).toBe('Dana Demo');
    expect(auditUserName({ ...row, actor_kind: 'client', actor_name: 'Ada Client', actor_email: 'ada@client.test' })).toBe('Ada Client (client)');
    expect(auditUserEmail({ ...row, actor_kind: 'client', actor_email: 'ada@client.test' })).toBe('ada@client.test');
    expect(auditUserName({ ...row, actor_kind: 'system' })).toBe('System');
    expect(auditUserName({ ...row, actor_kind: 'user' })).toBe('A former user');
    // An older row without a user: as before.
    expect(auditUserName(row)).toBe('System');
  });
});
