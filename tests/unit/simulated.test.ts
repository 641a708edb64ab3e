import { describe, expect, it } from 'vitest';
import { messageSentText, SIMULATED_ACTIONS } from '../../app/features/automations/simulated.ts';
import { normaliseStatus, statusLabel, statusTone } from '../../app/lib/tones.ts';

describe('simulated saves (docs/product-guide.md)', () => {
  it('wait 1 s for message, shipment, RFP, assessment and automation, 2 s for export', () => {
    const delays = Object.fromEntries(Object.entries(SIMULATED_ACTIONS).map(([name, action]) => [name, action.delayMs]));
    expect(delays).toEqual({
      message: 1000,
      shipment: 1000,
      rfp: 1000,
      assessment: 1000,
      automation: 1000,
      report: 2000,
    });
  });

  it('use the spec’s busy labels and texts', () => {
    expect(SIMULATED_ACTIONS.message.busyLabel).toBe('Sending...');
    expect(SIMULATED_ACTIONS.report.busyLabel).toBe('Generating...');
    expect(SIMULATED_ACTIONS.shipment.busyLabel).toBe('Creating...');
    expect(messageSentText('WhatsApp')).toBe('Message sent via WhatsApp');
    expect(SIMULATED_ACTIONS.report.success).toBe('Report exported successfully! Download will begin shortly.');
    expect(SIMULATED_ACTIONS.rfp.failure).toBe('Failed to create RFP response');
  });
});

describe('status colours (one language across the product)', () => {
  it('paints done green, moving blue, waiting amber, trouble red and inactive gray', () => {
    for (const status of ['paid', 'Delivered', 'Approved', 'Compliant', 'Active', 'Final']) expect(statusTone(status)).toBe('green');
    for (const status of ['sent', 'In Transit', 'In Progress', 'Submitted', 'new']) expect(statusTone(status)).toBe('blue');
    for (const status of ['pending', 'Processing', 'Pending Review', 'Under Review', 'Paused']) expect(statusTone(status)).toBe('amber');
    for (const status of ['overdue', 'Failed', 'Non-Compliant', 'Action Required', 'High', 'critical']) {
      expect(statusTone(status)).toBe('red');
    }
    for (const status of ['draft', 'Closed', 'inactive']) expect(statusTone(status)).toBe('gray');
    expect(statusTone('something-else')).toBe('outline');
  });

  it('reads any spelling of a status as the same status, and labels it in words', () => {
    expect(normaliseStatus('in_transit')).toBe('in transit');
    expect(normaliseStatus('in-transit')).toBe('in transit');
    expect(normaliseStatus('Non-Compliant')).toBe('non-compliant');
    expect(statusLabel('in_transit')).toBe('In Transit');
    expect(statusLabel('non-compliant')).toBe('Non-Compliant');
    expect(statusLabel('Pending Review')).toBe('Pending Review');
  });
});
