// The one colour language: every role has its own colour, and anything the
// product does not know is an outlined badge rather than a wrong colour.
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../app/lib/roles.ts';
import { auditTone, roleTone, statusTone, TONES } from '../../app/lib/tones.ts';

describe('tones', () => {
  it('gives each role its own colour: admin red, member amber, auditor blue, supplier purple, client green', () => {
    expect(ROLES.map(roleTone)).toEqual(['red', 'amber', 'blue', 'purple', 'green']);
    expect(new Set(ROLES.map(roleTone)).size).toBe(ROLES.length);
    expect(roleTone('owner')).toBe('outline');
  });

  it('answers only tones the badge can draw', () => {
    for (const tone of [...ROLES.map(roleTone), auditTone('user_invited'), statusTone('paid'), statusTone('??')]) expect(TONES).toContain(tone);
  });
});
