// The mails of a shipment's news (decision 077): delivered, or an exception,
// to its client contact and its owner. Plain text with the public tracking
// page's link.
export interface ShipmentMailFacts {
  kind: 'delivered' | 'exception';
  accountName: string;
  trackingNumber: string;
  destination: string;
  /** The event that brought the news: what the carrier (or a person) said, and where. */
  description: string | null;
  location: string | null;
  trackUrl: string | null;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function shipmentMail(facts: ShipmentMailFacts): { subject: string; text: string; html: string } {
  const subject =
    facts.kind === 'delivered'
      ? `Shipment ${facts.trackingNumber} was delivered`
      : `Shipment ${facts.trackingNumber} has an exception`;
  const said = [facts.description, facts.location].filter((part) => part && part.trim() !== '').join(', ');
  const lines = [
    facts.kind === 'delivered'
      ? `Shipment ${facts.trackingNumber} to ${facts.destination} was delivered.`
      : `Shipment ${facts.trackingNumber} to ${facts.destination} has an exception and may be delayed.`,
    ...(said ? [`Latest event: ${said}`] : []),
    ...(facts.trackUrl ? ['', `Track it here: ${facts.trackUrl}`] : []),
    '',
    facts.accountName,
  ];
  return {
    subject,
    text: lines.join('\n'),
    html: lines.map((line) => (line === '' ? '<br>' : `<p>${escapeHtml(line)}</p>`)).join('\n'),
  };
}
