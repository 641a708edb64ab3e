// Logistics in the database (issue 36): purchase orders numbered without
// gaps, sent/confirmed/received/cancelled; the supplier sees and confirms only
// the orders addressed to them; shipments and their tracking events, whose
// status never moves back for an older event and stores a repeat once; who
// reads and writes, and another account's rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Po = { id: string; po_number: string; status: string; total: number };
type Shipment = { id: string; status: string; tracking_number: string; delivered_at: string | null; direction: string };

describe('logistics on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let supplier: Member;
  let otherSupplier: Member;
  let other: Member;

  const items = [
    { description: 'Pallets', qty: 10, unit_price: 2500 },
    { description: 'Straps', qty: 4, unit_price: 150 },
  ];
  const createPo = (who: Member, supplierUserId: string | null = null, email: string | null = 'orders@northwind.test') =>
    who.client
      .rpc('create_purchase_order', {
        p_supplier_name: 'Northwind', p_supplier_email: email, p_currency: 'eur', p_expected_on: null, p_notes: null,
        p_items: items, p_supplier_user_id: supplierUserId,
      })
      .single<Po>();
  const newShipment = (who: Member, changes: Record<string, unknown> = {}) =>
    who.client
      .rpc('create_shipment', {
        p_origin: 'Berlin', p_destination: 'Paris', p_carrier: 'dhl', p_weight: 2.5, p_weight_unit: 'kg',
        p_length: 30, p_width: 20, p_height: 10, p_dimension_unit: 'cm', p_description: 'Samples',
        p_special_instructions: null, ...changes,
      })
      .single<Shipment>();

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'logi-admin');
    member = await addMember(backend, admin, 'member', 'logi-member');
    auditor = await addMember(backend, admin, 'auditor', 'logi-auditor');
    client = await addMember(backend, admin, 'client', 'logi-client');
    supplier = await addMember(backend, admin, 'supplier', 'logi-supplier');
    otherSupplier = await addMember(backend, admin, 'supplier', 'logi-supplier2');
    other = await signUpFreshAdmin(backend, 'logi-other');
  });
  afterAll(async () => backend?.stop());

  it('numbers orders PO-<year>-0001 upward without gaps, totals from the lines, audited', async () => {
    const year = new Date().getUTCFullYear();
    const first = await createPo(member);
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ po_number: `PO-${year}-0001`, status: 'draft', total: 10 * 2500 + 4 * 150 });
    const refused = await member.client.rpc('create_purchase_order', {
      p_supplier_name: 'X', p_supplier_email: null, p_currency: 'EUR', p_expected_on: null, p_notes: null, p_items: [],
    });
    expect(refused.error?.message).toBe('Add at least one line item');
    const second = await createPo(admin);
    expect(second.data?.po_number).toBe(`PO-${year}-0002`);
    const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', first.data!.id);
    expect(audit?.map((row) => row.action)).toContain('purchase_order_created');
    // Another account counts on its own.
    expect((await createPo(other)).data?.po_number).toBe(`PO-${year}-0001`);
  });

  it('the supplier sees and confirms only the orders addressed to them; others see nothing', async () => {
    const mine = (await createPo(admin, supplier.userId)).data!;
    const theirs = (await createPo(admin, otherSupplier.userId)).data!;
    expect((await supplier.client.rpc('confirm_purchase_order', { p_id: mine.id })).error?.message)
      .toBe('Only a sent purchase order can be confirmed');
    expect((await admin.client.rpc('send_purchase_order', { p_id: mine.id })).error).toBeNull();
    expect((await admin.client.rpc('send_purchase_order', { p_id: theirs.id })).error).toBeNull();

    const seen = await supplier.client.from('purchase_orders').select('id');
    expect(seen.data?.map((row) => row.id)).toEqual([mine.id]);
    const lines = await supplier.client.from('purchase_order_items').select('purchase_order_id');
    expect(new Set(lines.data?.map((row) => row.purchase_order_id))).toEqual(new Set([mine.id]));
    expect((await supplier.client.rpc('confirm_purchase_order', { p_id: theirs.id })).error?.code).toBe('P0002');
    const confirmed = await supplier.client.rpc('confirm_purchase_order', { p_id: mine.id }).single<Po>();
    expect(confirmed.data?.status).toBe('confirmed');
    // The supplier cannot send, cancel or receive.
    expect((await supplier.client.rpc('cancel_purchase_order', { p_id: mine.id })).error?.code).toBe('42501');
    expect((await supplier.client.rpc('receive_purchase_order', { p_id: mine.id })).error?.code).toBe('42501');

    for (const outsider of [client, other]) {
      expect((await outsider.client.from('purchase_orders').select('id')).data?.filter((r) => r.id === mine.id)).toEqual([]);
      expect((await outsider.client.rpc('confirm_purchase_order', { p_id: mine.id })).error?.code).toBe('P0002');
    }
    expect((await auditor.client.from('purchase_orders').select('id').eq('id', mine.id)).data).toHaveLength(1);
    expect((await auditor.client.rpc('send_purchase_order', { p_id: mine.id })).error?.code).toBe('42501');

    const { data: events } = await service.from('events').select('kind, payload').eq('resource_id', mine.id);
    expect(events?.map((row) => row.kind).sort()).toEqual(['po_confirmed', 'po_sent']);
  });

  it('receives in part, then in full: the inbound shipment and what arrived; a received order cannot be cancelled', async () => {
    const po = (await createPo(member, supplier.userId)).data!;
    await member.client.rpc('send_purchase_order', { p_id: po.id });
    const { data: lines } = await service.from('purchase_order_items').select('id, description, qty').eq('purchase_order_id', po.id).order('position');
    const tooMany = await member.client.rpc('receive_purchase_order', { p_id: po.id, p_received: { [lines![0].id]: 11 } });
    expect(tooMany.error?.message).toBe('For "Pallets" at most 10 can still arrive');
    const part = await member.client.rpc('receive_purchase_order', { p_id: po.id, p_received: { [lines![0].id]: 6 } }).single<Shipment>();
    expect(part.error).toBeNull();
    expect(part.data).toMatchObject({ direction: 'inbound', status: 'Delivered' });
    expect((await service.from('purchase_orders').select('status').eq('id', po.id).single()).data?.status).toBe('sent');
    // The supplier sees the shipment of their order and adds the carrier's number.
    const tracked = await supplier.client
      .rpc('set_shipment_tracking_number', { p_shipment_id: part.data!.id, p_tracking_number: '1Z999AA10123456784', p_carrier: 'ups' })
      .single<Shipment>();
    expect(tracked.data?.tracking_number).toBe('1Z999AA10123456784');
    const rest = await member.client.rpc('receive_purchase_order', { p_id: po.id }).single<Shipment>();
    expect(rest.error).toBeNull();
    const { data: packages } = await service.from('shipment_packages').select('description, qty').eq('shipment_id', rest.data!.id);
    expect(packages).toEqual(expect.arrayContaining([{ description: 'Pallets', qty: 4 }, { description: 'Straps', qty: 4 }]));
    expect((await service.from('purchase_orders').select('status').eq('id', po.id).single()).data?.status).toBe('received');
    expect((await member.client.rpc('cancel_purchase_order', { p_id: po.id })).error?.message)
      .toBe('A received or cancelled purchase order cannot be cancelled');
    const draft = (await createPo(member)).data!;
    expect((await member.client.rpc('cancel_purchase_order', { p_id: draft.id }).single<Po>()).data?.status).toBe('cancelled');
  });

  it('creates a shipment with positive weight and dimensions in units; refuses bad ones', async () => {
    const created = await newShipment(member);
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ status: 'Processing' });
    expect(created.data?.tracking_number).toMatch(/^SHP-[0-9A-F]{12}$/);
    expect((await newShipment(member, { p_weight: 0 })).error?.code).toBe('23514');
    expect((await newShipment(member, { p_length: -1 })).error?.code).toBe('23514');
    expect((await newShipment(member, { p_dimension_unit: null })).error?.code).toBe('23514');
    expect((await newShipment(member, { p_weight_unit: 'stone' })).error?.code).toBe('23514');
    expect((await newShipment(auditor)).error?.code).toBe('42501');
    expect((await newShipment(client)).error?.code).toBe('42501');
    expect((await newShipment(supplier)).error?.code).toBe('42501');
    // Staff's own shipment is not the supplier's to see.
    expect((await supplier.client.from('shipments').select('id').eq('id', created.data!.id)).data).toEqual([]);
    expect((await other.client.from('shipments').select('id').eq('id', created.data!.id)).data).toEqual([]);
    expect((await other.client.rpc('add_tracking_event', {
      p_shipment_id: created.data!.id, p_occurred_at: new Date().toISOString(), p_status: 'In Transit', p_location: null, p_description: 'x',
    })).error?.code).toBe('P0002');
    const counts = await member.client.rpc('shipment_counts').single<{ total: number; processing: number }>();
    expect(counts.data!.processing).toBeGreaterThanOrEqual(1);
  });

  it('an older event never moves the status back; the same event twice is stored once; delivered emits once', async () => {
    const shipment = (await newShipment(member)).data!;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const add = (minutesAgo: number, status: string, location = 'Lyon') =>
      member.client.rpc('add_tracking_event', {
        p_shipment_id: shipment.id, p_occurred_at: at(minutesAgo), p_status: status, p_location: location, p_description: status,
      });
    // The creation event is at creation time: later events are posted a minute or two ahead of now.
    expect((await add(-1, 'In Transit')).error).toBeNull();
    const older = await add(30, 'Exception');
    expect(older.error).toBeNull();
    let row = (await service.from('shipments').select('status').eq('id', shipment.id).single()).data!;
    expect(row.status).toBe('In Transit');
    const when = new Date(Date.now() + 2 * 60_000).toISOString();
    const deliver = () => member.client.rpc('add_tracking_event', {
      p_shipment_id: shipment.id, p_occurred_at: when, p_status: 'Delivered', p_location: 'Paris', p_description: 'Delivered',
    });
    expect((await deliver()).error).toBeNull();
    expect((await deliver()).error).toBeNull();
    row = (await service.from('shipments').select('status, delivered_at').eq('id', shipment.id).single()).data!;
    expect(row.status).toBe('Delivered');
    const { data: events } = await service.from('tracking_events').select('status').eq('shipment_id', shipment.id).eq('status', 'Delivered');
    expect(events).toHaveLength(1);
    const { data: emitted } = await service.from('events').select('kind').eq('resource_id', shipment.id);
    expect(emitted?.map((e) => e.kind)).toEqual(['shipment_delivered']);
    expect((await member.client.rpc('mark_shipment_delivered', { p_shipment_id: shipment.id })).error?.message)
      .toBe('This shipment is already delivered');
    expect((await add(-10, 'Exception')).error?.message).toBe('The event\'s time cannot be in the future');
  });

  it('mark delivered by hand; an exception emits shipment_exception', async () => {
    const a = (await newShipment(member)).data!;
    const delivered = await member.client.rpc('mark_shipment_delivered', { p_shipment_id: a.id }).single<Shipment>();
    expect(delivered.data?.status).toBe('Delivered');
    const b = (await newShipment(member)).data!;
    await member.client.rpc('add_tracking_event', {
      p_shipment_id: b.id, p_occurred_at: new Date(Date.now() + 60_000).toISOString(), p_status: 'Exception', p_location: null, p_description: 'Damaged',
    });
    const { data: emitted } = await service.from('events').select('kind').eq('resource_id', b.id);
    expect(emitted?.map((e) => e.kind)).toEqual(['shipment_exception']);
  });

  it('nobody writes the tables directly', async () => {
    const insert = await admin.client.from('shipments').insert({
      account_id: admin.accountId, origin: 'a', destination: 'b', weight: 1, description: 'c',
    });
    expect(insert.error).not.toBeNull();
    const status = await admin.client.from('shipments').update({ status: 'Delivered' }).eq('account_id', admin.accountId);
    expect(status.error).not.toBeNull();
    const events = await admin.client.from('tracking_events').insert({
      account_id: admin.accountId, shipment_id: admin.accountId, occurred_at: new Date().toISOString(), status: 'Delivered', description: 'x', source: 'manual',
    });
    expect(events.error).not.toBeNull();
  });
});
