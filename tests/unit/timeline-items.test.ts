import { describe, expect, it } from 'vitest';
import { timelineItems } from '../../app/components/records/timeline-items.ts';
import type { HistoryEntry } from '../../app/lib/record-history.ts';

const row = (id: string, action: string, at: string, extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id, action, at, actor: 'Dana Demo', actorKind: 'user', actorEmail: null, oldValues: {}, newValues: {}, ...extra,
});

describe("a record's timeline", () => {
  it('merges the moments with the history, newest first, each moment told once (by the row that knows who)', () => {
    const items = timelineItems(
      [
        { label: 'Created', at: '2026-01-01T10:00:00Z', covers: ['quote_created'] },
        { label: 'Sent', at: '2026-01-02T10:00:00Z', covers: ['quote_sent'] },
        { label: 'Viewed', at: '2026-01-03T10:00:00Z', actor: 'Ada, client', covers: ['quote_viewed'] },
        { label: 'Signed', at: null, covers: ['quote_signed'] },
      ],
      [
        row('2', 'quote_sent', '2026-01-02T10:00:00Z', { newValues: { status: 'sent' } }),
        row('1', 'quote_created', '2026-01-01T10:00:00Z'),
      ],
    );
    expect(items.map((item) => [item.title, item.actor])).toEqual([
      ['Viewed', 'Ada, client'],
      ['Sent', 'Dana Demo'],
      ['Created', 'Dana Demo'],
    ]);
  });

  it('drops a status-only edit that a named row or moment already tells, keeps the others', () => {
    const items = timelineItems(
      [{ label: 'Paid', at: '2026-01-05T10:00:00Z' }],
      [
        row('3', 'invoice_updated', '2026-01-05T10:00:00Z', { oldValues: { status: 'sent' }, newValues: { status: 'paid' } }),
        row('2', 'lead_updated', '2026-01-04T10:00:00Z', { oldValues: { status: 'new' }, newValues: { status: 'contacted' } }),
      ],
    );
    expect(items.map((item) => item.title)).toEqual(['Paid', 'Status changed']);
  });

  it('keeps two things at the same instant in the order they happened', () => {
    const at = '2026-01-02T10:00:00Z';
    const items = timelineItems(
      [
        { label: 'Sent', at },
        { label: 'Viewed', at },
      ],
      [],
    );
    expect(items.map((item) => item.title)).toEqual(['Viewed', 'Sent']);
  });
});
