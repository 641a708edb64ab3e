// The demonstration screens' saves (docs/product-guide.md, Demonstration screens): no
// request is made; the action waits, then reports success. The delays and the
// texts live here, once, for the actions, the components and the tests.

export const SIMULATED_ACTIONS = {
  message: {
    delayMs: 1000,
    busyLabel: 'Sending...',
    failure: 'Failed to send message',
  },
  shipment: {
    delayMs: 1000,
    busyLabel: 'Creating...',
    success: 'Shipment created successfully!',
    failure: 'Failed to create shipment',
  },
  rfp: {
    delayMs: 1000,
    busyLabel: 'Creating...',
    success: 'RFP response created successfully!',
    failure: 'Failed to create RFP response',
  },
  assessment: {
    delayMs: 1000,
    busyLabel: 'Creating...',
    success: 'Compliance assessment created successfully!',
    failure: 'Failed to create assessment',
  },
  automation: {
    delayMs: 1000,
    busyLabel: 'Creating...',
    success: 'Automation workflow created successfully!',
    failure: 'Failed to create automation',
  },
  report: {
    delayMs: 2000,
    busyLabel: 'Generating...',
    success: 'Report exported successfully! Download will begin shortly.',
    failure: 'Failed to export report',
  },
} as const;

export type SimulatedAction = keyof typeof SIMULATED_ACTIONS;

/** 'Message sent via' followed by the channel (docs/product-guide.md), e.g. 'Message sent via WhatsApp'. */
export function messageSentText(channelLabel: string): string {
  return `Message sent via ${channelLabel}`;
}

/** Said to assistive technology by the buttons the spec says do nothing. */
export const NOT_AVAILABLE_TEXT = 'Not available in this demo';
