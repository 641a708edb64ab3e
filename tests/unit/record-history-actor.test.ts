// How a history names who acted (issue 31): a person by name, a client by
// name and email with 'client', the jobs runner as 'System', a deleted user as
// 'a former user'.
import { describe, expect, it } from 'vitest';
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
