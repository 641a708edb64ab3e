// Carrier hooks in the database (issue 36, decision 061): an admin rotates the
// account's hook token and secret (shown then only); only the service role
// reads a secret by token or records a carrier event; an event for a tracking
// number of another account (or none) is P0002 and stores nothing; the same
// provider event twice is stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

describe('carrier hooks on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let supplier: Member;
  let other: Member;

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'hook-admin');
    member = await addMember(backend, admin, 'member', 'hook-member');
    auditor = await addMember(backend, admin, 'auditor', 'hook-auditor');
    supplier = await addMember(backend, admin, 'supplier', 'hook-supplier');
    other = await signUpFreshAdmin(backend, 'hook-other');
  });
  afterAll(async () => backend?.stop());

  const shipment = async (who: Member) =>
    (
      await who.client
        .rpc('create_shipment', {
          p_origin: 'Berlin', p_destination: 'Paris', p_carrier: 'dhl', p_weight: 2, p_weight_unit: 'kg',
          p_length: null, p_width: null, p_height: null, p_dimension_unit: null, p_description: 'Parts', p_special_instructions: null,
        })
        .single<{ id: string; tracking_number: string; status: string }>()
    ).data!;

  const record = (token: string, tracking: string, eventId: string, status = 'In Transit', at = new Date().toISOString()) =>
    service.rpc('record_carrier_event', {
      p_token: token, p_provider: 'aftership', p_tracking_number: tracking, p_event_id: eventId, p_occurred_at: at,
      p_status: status, p_location: 'Lyon, FRA', p_description: 'Arrived at hub', p_estimated_delivery: null,
    });

  it('admins rotate the token and secret; the old ones stop working; others are refused', async () => {
    expect((await admin.client.rpc('carrier_hook')).data).toEqual([]);
    const first = (await admin.client.rpc('rotate_carrier_hook')).data as { token: string; secret: string }[];
    expect(first[0].token).toMatch(/^[a-z0-9]{32}$/);
    expect(first[0].secret.length).toBeGreaterThanOrEqual(32);
    const shown = (await admin.client.rpc('carrier_hook')).data as Record<string, unknown>[];
    expect(shown[0].token).toBe(first[0].token);
    expect(shown[0]).not.toHaveProperty('secret');
    const second = (await admin.client.rpc('rotate_carrier_hook')).data as { token: string; secret: string }[];
    expect(second[0].token).not.toBe(first[0].token);
    expect((await service.rpc('carrier_hook_secret', { p_token: first[0].token })).data).toBeNull();
    expect((await service.rpc('carrier_hook_secret', { p_token: second[0].token })).data).toBe(second[0].secret);
    for (const who of [member, auditor, supplier]) {
      expect((await who.client.rpc('rotate_carrier_hook')).error?.code).toBe('42501');
      expect((await who.client.rpc('carrier_hook')).error?.code).toBe('42501');
    }
    for (const who of [admin.client, member.client, anonClient(backend)]) {
      expect((await who.rpc('carrier_hook_secret', { p_token: second[0].token })).error).not.toBeNull();
      const refused = await who.rpc('record_carrier_event', {
        p_token: second[0].token, p_provider: 'aftership', p_tracking_number: 'SHP-1', p_event_id: 'x', p_occurred_at: new Date().toISOString(),
        p_status: 'Delivered', p_location: '', p_description: '', p_estimated_delivery: null,
      });
      expect(refused.error).not.toBeNull();
    }
  });

  it('records a carrier event once, moves the status, and refuses another account\'s tracking number without storing', async () => {
    const [{ token }] = (await admin.client.rpc('rotate_carrier_hook')).data as { token: string }[];
    const mine = await shipment(admin);
    const first = await record(token, mine.tracking_number.toLowerCase(), 'evt-1');
    expect(first.error).toBeNull();
    expect(typeof first.data).toBe('string');
    const replay = await record(token, mine.tracking_number, 'evt-1');
    expect(replay.error).toBeNull();
    expect(replay.data).toBeNull();
    const { data: events } = await service.from('tracking_events').select('provider, provider_event_id, source').eq('shipment_id', mine.id).eq('source', 'carrier');
    expect(events).toEqual([{ provider: 'aftership', provider_event_id: 'evt-1', source: 'carrier' }]);
    expect((await service.from('shipments').select('status').eq('id', mine.id).single()).data!.status).toBe('In Transit');

    const theirs = await shipment(other);
    expect((await record(token, theirs.tracking_number, 'evt-2')).error?.code).toBe('P0002');
    expect((await record(token, 'SHP-NOSUCHNUMBER', 'evt-3')).error?.code).toBe('P0002');
    expect((await record('0'.repeat(32), mine.tracking_number, 'evt-4')).error?.code).toBe('P0002');
    const { count } = await service.from('tracking_events').select('id', { count: 'exact', head: true }).eq('shipment_id', theirs.id).eq('source', 'carrier');
    expect(count).toBe(0);
  });
});
