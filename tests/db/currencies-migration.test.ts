// Migration 20261209000001 adds the Peruvian sol and the Argentine, Chilean and Colombian pesos to the one list of
// currencies. On kept data: the quotes and invoices written before it keep their currencies, the list is still
// readable by every role (a replaced function keeps its grants), and the new codes are taken, the Chilean peso in
// whole amounts only. Migration 20261209000002 then lets a bid (public.rfps) take any currency of the list, as quotes
// and invoices do: its kept bids stay, a bid in PLN is taken, an unknown code refused.
import { describe, expect, it } from 'vitest';
import { migrate } from '../../supabase/local/migrate.ts';
import { asRole, createPglite, createPostgres, migrateBefore, one, postgresUrl } from './support/sql-db.ts';

const LIST_MIGRATION = '20261209000001';
const BIDS_MIGRATION = '20261209000002';

for (const target of [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
]) {
  describe.skipIf(target.skip)(`the currency list's migration on kept data, ${target.name}`, () => {
    it('keeps the rows written before it and their grants, and takes the new codes', async () => {
      const { db, drop } = await target.create();
      try {
        await migrateBefore(db, LIST_MIGRATION);
        const kept = async () => (await db.query<{ currency: string; n: number }>(
          `select currency, count(*)::int as n from (select currency from public.quotes union all select currency from public.invoices) r group by currency order by currency`,
        )).rows;
        const rows = await kept();
        expect(rows.length).toBeGreaterThan(0);
        expect(await one(db, `select public.is_currency('PEN') as ok`)).toEqual({ ok: false });

        await migrate(db);
        expect(await kept()).toEqual(rows);
        for (const code of ['PEN', 'ARS', 'CLP', 'COP']) expect(await one(db, 'select public.is_currency($1) as ok', [code])).toEqual({ ok: true });
        // Whole pesos in Chile (no minor units), cents in Peru.
        expect(await one(db, `select public.fits_currency(150, 'CLP') as ok`)).toEqual({ ok: false });
        expect(await one(db, `select public.fits_currency(150, 'PEN') as ok`)).toEqual({ ok: true });
        // Readable by a visitor and a member, as before.
        for (const role of ['anon', 'authenticated'] as const) {
          const { n } = await asRole(db, role, {}, (tx) => one<{ n: number }>(tx, 'select count(*)::int as n from public.currencies()'));
          expect(n).toBe(25);
        }
      } finally {
        await drop();
      }
    }, 180_000);

    it('lets a kept database take bids in every listed currency', async () => {
      const { db, drop } = await target.create();
      try {
        await migrateBefore(db, BIDS_MIGRATION);
        const { account_id: account } = await one<{ account_id: string }>(db, 'select account_id from public.templates limit 1');
        const bid = (currency: string) =>
          db.query(`insert into public.rfps (account_id, title, company, contact_email, value, currency, deadline, proposal)
                    values ($1, 'Bid', 'Buyer', 'a@buyer.test', 100000, $2, '2027-01-01', 'Our offer') returning currency`, [account, currency]);
        await bid('GBP');
        await expect(bid('PLN')).rejects.toThrow(/rfps_currency_check/);
        const kept = await one<{ n: number }>(db, 'select count(*)::int as n from public.rfps');

        await migrate(db);
        expect(await one(db, 'select count(*)::int as n from public.rfps')).toEqual(kept);
        expect((await bid('PLN')).rows).toEqual([{ currency: 'PLN' }]);
        await expect(bid('XYZ')).rejects.toThrow(/rfps_currency_check/);
      } finally {
        await drop();
      }
    }, 180_000);
  });
}
