// The helpdesk SLA's pure parts (decision 075): the timer's text and tone, and
// the settings form's rules (hours, days, opening times, holidays).
import { describe, expect, it } from 'vitest';
import { parseWithZod } from '@conform-to/zod/v4';
import { formatSpan, slaTimer } from '~/features/helpdesk/sla/timer';
import { parseHolidays, slaArgs, slaSettingsSchema } from '~/features/helpdesk/sla/schema';

const now = new Date('2026-03-02T10:00:00Z');

describe('the SLA timer', () => {
  it('says how long is left, how late it is, or that no clock runs', () => {
    expect(slaTimer(null, now)).toEqual({ tone: 'stopped', text: 'No SLA running' });
    expect(slaTimer('2026-03-02T10:30:00Z', now)).toEqual({ tone: 'soon', text: 'Due in 30 min' });
    expect(slaTimer('2026-03-02T13:20:00Z', now)).toEqual({ tone: 'ok', text: 'Due in 3 h 20 min' });
    expect(slaTimer('2026-03-02T09:00:00Z', now)).toEqual({ tone: 'breached', text: 'Overdue by 1 h' });
    expect(formatSpan(2 * 24 * 60 + 4 * 60)).toBe('2 d 4 h');
  });
});

describe('the SLA settings form', () => {
  const form = (changes: Record<string, string | string[]> = {}) => {
    const data = new FormData();
    const values: Record<string, string | string[]> = {
      timezone: 'Europe/Paris', days: ['1', '2', '3', '4', '5'], opens_at: '09:00', closes_at: '17:30', holidays: '2026-12-25\n\n2026-01-01',
      first_response_urgent: '0.5', resolution_urgent: '4', first_response_high: '1', resolution_high: '8',
      first_response_normal: '4', resolution_normal: '24', first_response_low: '8', resolution_low: '40',
      next_response_urgent: '1', next_response_high: '2', next_response_normal: '4', next_response_low: '8', ...changes,
    };
    for (const [k, v] of Object.entries(values)) for (const one of [v].flat()) data.append(k, one);
    return parseWithZod(data, { schema: slaSettingsSchema });
  };

  it('turns hours into business minutes and holidays into sorted dates', () => {
    const submission = form();
    expect(submission.status).toBe('success');
    if (submission.status !== 'success') return;
    const args = slaArgs(submission.value);
    expect(args).toMatchObject({ p_timezone: 'Europe/Paris', p_days: [1, 2, 3, 4, 5], p_holidays: ['2026-01-01', '2026-12-25'] });
    expect(args.p_targets.urgent).toEqual({ first_response_minutes: 30, resolution_minutes: 240, next_response_minutes: 60 });
  });

  it('refuses a missing or zero next response target (decision 083)', () => {
    expect(form({ next_response_low: '' }).status).toBe('error');
    expect(form({ next_response_low: '0' }).status).toBe('error');
  });

  it('refuses closing before opening, no days, a bad date, a zero target and an unknown timezone, at their fields', () => {
    const errors = (changes: Record<string, string | string[]>) => (form(changes).reply().error ?? {}) as Record<string, unknown>;
    expect(errors({ closes_at: '08:00' }).closes_at).toEqual(['Closing time must be after opening time']);
    expect(errors({ days: [] }).days).toBeDefined();
    expect(errors({ holidays: '2026-02-30' }).holidays).toEqual(['"2026-02-30" is not a date like 2026-12-25']);
    expect(errors({ resolution_low: '0' }).resolution_low).toBeDefined();
    expect(errors({ timezone: 'Mars/Olympus' }).timezone).toEqual(['Choose a timezone']);
    expect(parseHolidays('x'.repeat(5))).toMatch(/is not a date/);
  });
});

describe('the inbox SLA and tag filters', () => {
  // A query builder that records its calls, as supabase-js chains them.
  const recorder = () => {
    const calls: string[] = [];
    const q = {
      lte: (c: string, v: string) => (calls.push(`lte ${c} ${v}`), q),
      gt: (c: string, v: string) => (calls.push(`gt ${c} ${v}`), q),
      contains: (c: string, v: string[]) => (calls.push(`contains ${c} ${v.join('|')}`), q),
      is: (c: string, v: null) => (calls.push(`is ${c} ${v}`), q),
    };
    return { q, calls };
  };

  it("narrows to 'Breached', 'Due soon' (the next hour) and a tag, never listing a merged conversation", async () => {
    const { slaFiltered, readSlaFilters } = await import('~/features/helpdesk/sla/inbox-filters.server');
    const breached = recorder();
    slaFiltered(breached.q, 'breached', null, now);
    expect(breached.calls).toEqual(['is merged_into_id null', 'lte sla_due_at 2026-03-02T10:00:00.000Z']);
    const soon = recorder();
    slaFiltered(soon.q, 'due_soon', 'vip', now);
    expect(soon.calls).toEqual([
      'is merged_into_id null', 'gt sla_due_at 2026-03-02T10:00:00.000Z', 'lte sla_due_at 2026-03-02T11:00:00.000Z', 'contains tags vip',
    ]);
    expect(readSlaFilters(new URL('http://x/messages?sla=due_soon&tag=VIP'))).toEqual({ sla: 'due_soon', tag: 'vip' });
    expect(readSlaFilters(new URL('http://x/messages?sla=late&tag=%3Cscript%3E'))).toEqual({ sla: null, tag: null });
  });
});
