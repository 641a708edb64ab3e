// The supplier's portal and logistics mail in the database (decision 077): an
// order is addressed to the supplier login with its email (made before or
// after the supplier joined); ship_purchase_order for the addressed supplier
// and staff only; po_sent, shipment_delivered and shipment_exception queue one
// job each, delivered once per shipment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Po = { id: string; po_number: string; status: string; supplier_user_id: string | null };
type Shipment = { id: string; status: string; tracking_number: string; direction: string; created_by: string | null };

describe('supplier portal and logistics jobs on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let auditor: Member;
  let client: Member;
  let supplier: Member;
  let otherSupplier: Member;
  let other: Member;

  const createPo = (who: Member, email: string | null) =>
    who.client
      .rpc('create_purchase_order', {
        p_supplier_name: 'Northwind', p_supplier_email: email, p_currency: 'eur', p_expected_on: null, p_notes: null,
        p_items: [{ description: 'Pallets', qty: 10, unit_price: 2500 }],
      })
      .single<Po>();
  const ship = (who: Member, id: string, number: string) =>
    who.client
      .rpc('ship_purchase_order', { p_purchase_order_id: id, p_tracking_number: number, p_carrier: 'ups', p_weight: 3, p_weight_unit: 'kg' })
      .single<Shipment>();
  const jobs = async (subject: string) =>
    ((await service.from('jobs').select('kind, idempotency_key, payload').eq('subject_id', subject)).data ?? []) as { kind: string; idempotency_key: string; payload: Record<string, string> }[];

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'portal-admin');
    auditor = await addMember(backend, admin, 'auditor', 'portal-auditor');
    client = await addMember(backend, admin, 'client', 'portal-client');
    supplier = await addMember(backend, admin, 'supplier', 'portal-supplier');
    other = await signUpFreshAdmin(backend, 'portal-other');
  });
  afterAll(async () => backend?.stop());

  it('addresses an order to the supplier login with its email, made before or after the supplier joined', async () => {
    const mine = (await createPo(admin, supplier.email.toUpperCase())).data!;
    expect(mine.supplier_user_id).toBe(supplier.userId);
    // A draft is not theirs to read yet, by the API either (lines included): only once it is sent.
    expect((await supplier.client.from('purchase_orders').select('id').eq('id', mine.id)).data).toEqual([]);
    expect((await supplier.client.from('purchase_order_items').select('id').eq('purchase_order_id', mine.id)).data).toEqual([]);
    const nobody = (await createPo(admin, 'someone-else@example.test')).data!;
    expect(nobody.supplier_user_id).toBeNull();
    // Written to an address whose supplier joins later: theirs once they join.
    const early = (await createPo(admin, 'late-supplier@example.test')).data!;
    expect(early.supplier_user_id).toBeNull();
    // Another account's order to the same address stays theirs.
    const elsewhere = (await createPo(other, 'late-supplier@example.test')).data!;
    otherSupplier = await addMember(backend, admin, 'supplier', 'portal-supplier2');
    // addMember picks its own address: make it the late one, as a changed email would.
    await service.from('users').update({ email: 'late-supplier@example.test' }).eq('id', otherSupplier.userId);
    const linked = await service.from('purchase_orders').select('id, supplier_user_id').in('id', [early.id, elsewhere.id]);
    const byId = Object.fromEntries((linked.data ?? []).map((row) => [row.id, row.supplier_user_id]));
    expect(byId[early.id]).toBe(otherSupplier.userId);
    expect(byId[elsewhere.id]).toBeNull();
  });

  it('ships a sent order for its supplier or staff only, with a valid unused tracking number', async () => {
    const po = (await createPo(admin, supplier.email)).data!;
    expect((await ship(supplier, po.id, 'DRAFT-0001')).error?.message).toBe('Only a sent or confirmed purchase order can be shipped');
    expect((await admin.client.rpc('send_purchase_order', { p_id: po.id })).error).toBeNull();
    for (const outsider of [client, auditor, other]) {
      expect((await ship(outsider, po.id, `OUT-${outsider.role}-1`)).error?.code).toBe('P0002');
    }
    expect((await ship(supplier, po.id, 'no spaces')).error?.code).toBe('22023');
    const shipped = await ship(supplier, po.id, `1z-${Date.now()}`);
    expect(shipped.error).toBeNull();
    expect(shipped.data).toMatchObject({ status: 'Processing', direction: 'inbound', created_by: admin.userId });
    expect(shipped.data!.tracking_number).toBe(shipped.data!.tracking_number.toUpperCase());
    expect((await ship(admin, po.id, shipped.data!.tracking_number)).error?.code).toBe('23505');
    // The supplier reads it; another supplier does not.
    expect((await supplier.client.from('shipments').select('id').eq('id', shipped.data!.id)).data).toHaveLength(1);
    expect((await otherSupplier.client.from('shipments').select('id').eq('id', shipped.data!.id)).data).toEqual([]);
    const { data: events } = await service.from('tracking_events').select('status, description').eq('shipment_id', shipped.data!.id);
    expect(events).toEqual([{ status: 'Processing', description: 'Shipment created' }]);
  });

  it('the demo account starts with orders and shipments of its own, dated from today, and no mail queued for them', async () => {
    const { data: account } = await service.from('users').select('account_id').eq('email', 'demo@opshub.test').single();
    const { data: pos } = await service.from('purchase_orders').select('id, status, po_number').eq('account_id', account!.account_id);
    expect(pos!.map((po) => po.status).sort()).toEqual(['confirmed', 'draft', 'received']);
    const { data: shipments } = await service
      .from('shipments')
      .select('tracking_number, status, created_at, events:tracking_events(status, occurred_at)')
      .eq('account_id', account!.account_id);
    expect(new Set(shipments!.map((s) => s.status))).toEqual(new Set(['Processing', 'In Transit', 'Delivered', 'Exception']));
    for (const shipment of shipments!) {
      expect(shipment.events.length).toBeGreaterThan(0);
      expect(Date.now() - Date.parse(shipment.created_at)).toBeLessThan(30 * 86_400_000);
    }
    const { data: queued } = await service.from('jobs').select('kind').in('kind', ['purchase_order_send', 'shipment_notice']).in('account_id', [account!.account_id]);
    expect(queued).toEqual([]);
  });

  it('po_sent queues the supplier mail per send; delivered queues one notice per shipment, each exception one', async () => {
    const po = (await createPo(admin, 'mail-me@example.test')).data!;
    await admin.client.rpc('send_purchase_order', { p_id: po.id });
    await admin.client.rpc('send_purchase_order', { p_id: po.id });
    const sent = await jobs(po.id);
    expect(sent.map((job) => job.kind)).toEqual(['purchase_order_send', 'purchase_order_send']);
    expect(sent[0].payload.purchase_order_id).toBe(po.id);

    const shipment = (await ship(admin, po.id, `NOTE-${Date.now()}`)).data!;
    const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    for (const minutes of [1, 2]) {
      await admin.client.rpc('add_tracking_event', {
        p_shipment_id: shipment.id, p_occurred_at: soon(minutes), p_status: minutes === 1 ? 'Exception' : 'In Transit', p_location: null, p_description: 'Scan',
      });
    }
    await admin.client.rpc('add_tracking_event', { p_shipment_id: shipment.id, p_occurred_at: soon(3), p_status: 'Exception', p_location: 'Hub', p_description: 'Damaged' });
    expect((await admin.client.rpc('mark_shipment_delivered', { p_shipment_id: shipment.id })).error).toBeNull();
    const queued = await jobs(shipment.id);
    expect(queued.filter((job) => job.payload.kind === 'exception')).toHaveLength(2);
    expect(queued.filter((job) => job.payload.kind === 'delivered')).toHaveLength(1);
    expect(queued.every((job) => job.kind === 'shipment_notice')).toBe(true);
  });

  it('receiving after the supplier shipped delivers their shipment instead of making a second one', async () => {
    const po = (await createPo(admin, supplier.email)).data!;
    await admin.client.rpc('send_purchase_order', { p_id: po.id });
    const shipped = (await ship(supplier, po.id, `RCV-${Date.now()}`)).data!;
    const { data: lines } = await service.from('purchase_order_items').select('id').eq('purchase_order_id', po.id);
    const part = await admin.client.rpc('receive_purchase_order', { p_id: po.id, p_received: { [lines![0].id]: 6 } }).single<Shipment & { delivered_at: string | null }>();
    expect(part.error).toBeNull();
    expect(part.data).toMatchObject({ id: shipped.id, status: 'Delivered', tracking_number: shipped.tracking_number });
    expect(part.data!.delivered_at).not.toBeNull();
    const inbound = async () => (await service.from('shipments').select('id, packages:shipment_packages(qty)').eq('purchase_order_id', po.id).order('created_at')).data!;
    expect(await inbound()).toEqual([{ id: shipped.id, packages: [{ qty: 6 }] }]);
    const { data: events } = await service.from('tracking_events').select('status, description').eq('shipment_id', shipped.id).order('occurred_at');
    expect(events).toEqual([{ status: 'Processing', description: 'Shipment created' }, { status: 'Delivered', description: `Received against ${po.po_number}` }]);
    expect((await service.from('events').select('kind').eq('resource_id', shipped.id)).data).toEqual([{ kind: 'shipment_delivered' }]);
    // The rest arrives without a shipment of the supplier's left: a new one, as before.
    const rest = await admin.client.rpc('receive_purchase_order', { p_id: po.id }).single<Shipment>();
    expect(rest.data!.id).not.toBe(shipped.id);
    expect((await inbound()).map((row) => row.packages)).toEqual([[{ qty: 6 }], [{ qty: 4 }]]);
    expect((await service.from('purchase_orders').select('status').eq('id', po.id).single()).data?.status).toBe('received');
  });

  it('receiving a shipment the carrier already delivered keeps it delivered, with what arrived, and emits nothing again', async () => {
    const po = (await createPo(admin, supplier.email)).data!;
    await admin.client.rpc('send_purchase_order', { p_id: po.id });
    const shipped = (await ship(supplier, po.id, `DLV-${Date.now()}`)).data!;
    expect((await admin.client.rpc('mark_shipment_delivered', { p_shipment_id: shipped.id })).error).toBeNull();
    const before = (await service.from('shipments').select('delivered_at').eq('id', shipped.id).single()).data!;
    const received = await admin.client.rpc('receive_purchase_order', { p_id: po.id }).single<Shipment & { delivered_at: string }>();
    expect(received.data).toMatchObject({ id: shipped.id, status: 'Delivered', delivered_at: before.delivered_at });
    const { data: all } = await service.from('shipments').select('id, packages:shipment_packages(qty)').eq('purchase_order_id', po.id);
    expect(all).toEqual([{ id: shipped.id, packages: [{ qty: 10 }] }]);
    expect((await service.from('events').select('kind').eq('resource_id', shipped.id)).data).toEqual([{ kind: 'shipment_delivered' }]);
    expect((await service.from('purchase_orders').select('status').eq('id', po.id).single()).data?.status).toBe('received');
  });

  it('addresses an order to a chosen supplier login: only an active supplier of the account, its address when none is typed', async () => {
    const withLogin = (who: Member, userId: string, email: string | null) =>
      who.client
        .rpc('create_purchase_order', {
          p_supplier_name: 'Chosen', p_supplier_email: email ?? '', p_currency: 'eur', p_expected_on: null as unknown as string, p_notes: '',
          p_items: [{ description: 'Pallets', qty: 1, unit_price: 100 }], p_supplier_user_id: userId,
        })
        .single<Po & { supplier_email: string | null }>();
    const chosen = await withLogin(admin, supplier.userId, null);
    expect(chosen.data).toMatchObject({ supplier_user_id: supplier.userId, supplier_email: supplier.email.toLowerCase() });
    expect((await withLogin(admin, supplier.userId, 'orders@elsewhere.test')).data).toMatchObject({ supplier_user_id: supplier.userId, supplier_email: 'orders@elsewhere.test' });
    for (const notASupplier of [auditor.userId, client.userId]) {
      expect((await withLogin(admin, notASupplier, null)).error?.message).toBe("Choose one of the account's suppliers");
    }
    // Another account's admin cannot address their order to this account's supplier.
    expect((await withLogin(other, supplier.userId, null)).error?.message).toBe("Choose one of the account's suppliers");
    await service.from('users').update({ is_active: false }).eq('id', otherSupplier.userId);
    expect((await withLogin(admin, otherSupplier.userId, null)).error?.message).toBe("Choose one of the account's suppliers");
    await service.from('users').update({ is_active: true }).eq('id', otherSupplier.userId);
  });
});
