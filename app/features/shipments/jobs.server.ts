// The jobs of shipments (listed by app/jobs/registry.server.ts):
//   shipment_notice  queued by the shipment_delivered / shipment_exception
//                    events (20261205100001): one mail.send per person told
//                    (the shipment's client contact, its owner, the owner of
//                    its purchase order; the account's admins when none of
//                    them has an address), each keyed so none is sent twice.
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import { shipmentMail } from './shipment-mail';
import { queueMail } from '~/jobs/mail-jobs.server';

const shipmentNotice: JobHandler = async (payload, { admin, env, job }) => {
  const shipmentId = payloadText(payload, 'shipment_id');
  const kind = payloadText(payload, 'kind');
  if (kind !== 'delivered' && kind !== 'exception') throw new PermanentJobError(`Unknown shipment notice ${kind}`);
  const { data: shipment, error } = await admin
    .from('shipments')
    .select(
      'id, account_id, tracking_number, destination, created_by, contact:contacts(email), owner:users!shipments_created_by_account_id_fkey(email, is_active), po:purchase_orders(created_by), account:accounts(name)',
    )
    .eq('id', shipmentId)
    .maybeSingle();
  if (error) throw new Error(`reading shipment ${shipmentId} failed: ${error.message}`);
  if (!shipment) throw new PermanentJobError(`Shipment ${shipmentId} no longer exists`);
  if (job.account_id && job.account_id !== shipment.account_id) throw new PermanentJobError('The job and the shipment belong to different accounts');

  const eventId = typeof payload.event_id === 'string' ? payload.event_id : null;
  const { data: event } = eventId
    ? await admin.from('tracking_events').select('description, location').eq('id', eventId).eq('shipment_id', shipmentId).maybeSingle()
    : { data: null };

  const recipients = new Set<string>();
  if (shipment.contact?.email) recipients.add(shipment.contact.email.toLowerCase());
  if (shipment.owner?.is_active && shipment.owner.email) recipients.add(shipment.owner.email.toLowerCase());
  if (shipment.po?.created_by) {
    const { data: poOwner } = await admin.from('users').select('email, is_active').eq('id', shipment.po.created_by).maybeSingle();
    if (poOwner?.is_active && poOwner.email) recipients.add(poOwner.email.toLowerCase());
  }
  if (recipients.size === 0) {
    const { data: admins, error: adminsError } = await admin
      .from('users')
      .select('email')
      .eq('account_id', shipment.account_id)
      .eq('role', 'admin')
      .eq('is_active', true);
    if (adminsError) throw new Error(`reading the account's admins failed: ${adminsError.message}`);
    for (const person of admins ?? []) if (person.email) recipients.add(person.email.toLowerCase());
  }

  const mail = shipmentMail({
    kind,
    accountName: shipment.account?.name ?? '',
    trackingNumber: shipment.tracking_number,
    destination: shipment.destination,
    description: event?.description ?? null,
    location: event?.location ?? null,
    trackUrl: env.SITE_URL ? new URL(`/track/${encodeURIComponent(shipment.tracking_number)}`, env.SITE_URL).toString() : null,
  });
  for (const to of recipients) {
    await queueMail(admin, shipment.account_id, `shipment_${kind}:${eventId ?? shipment.id}:${to}`, { to, ...mail }, shipment.id);
  }
};

export const SHIPMENT_JOB_TYPES: Record<string, JobHandler> = {
  shipment_notice: shipmentNotice,
};
