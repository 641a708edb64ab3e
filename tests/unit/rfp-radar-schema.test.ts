// The radar settings' new fields (decision 092): a TED source's expert query (only for TED, one line) and
// when a search's new match is mailed at once (80 when the form leaves it out, 'off' for the digest only).
import { describe, expect, it } from 'vitest';
import { radarSettingsActionSchema } from '../../app/features/rfp/radar-schema';

const search = { intent: 'add-search', name: 'Hosting', keywords: 'cloud', horizon_days: '90' };
const source = { intent: 'add-source', name: 'TED', url: 'https://api.ted.europa.eu/v3/notices/search', format: 'ted' };

describe('the radar settings schema', () => {
  it('reads the alert score: 80 by default, a listed score, or off', () => {
    expect(radarSettingsActionSchema.parse(search)).toMatchObject({ alert_score: 80 });
    expect(radarSettingsActionSchema.parse({ ...search, alert_score: '60' })).toMatchObject({ alert_score: 60 });
    expect(radarSettingsActionSchema.parse({ ...search, alert_score: 'off' })).toMatchObject({ alert_score: null });
    expect(radarSettingsActionSchema.safeParse({ ...search, alert_score: '101' }).success).toBe(false);
  });

  it('takes an expert query for a TED source only, on one line', () => {
    expect(radarSettingsActionSchema.parse({ ...source, query: ' classification-cpv IN (72000000) ' })).toMatchObject({ query: 'classification-cpv IN (72000000)' });
    const notTed = radarSettingsActionSchema.safeParse({ ...source, format: 'ocds', query: 'x' });
    expect(notTed.error?.issues[0]).toMatchObject({ path: ['query'], message: 'Only a TED source takes an expert query' });
    expect(radarSettingsActionSchema.safeParse({ ...source, query: 'a\nb' }).error?.issues[0].message).toBe('Write the query on one line');
  });
});
