// The local backend's Storage API driven by the real @supabase/storage-js
// (through supabase-js's .storage), against a fixture project whose policies on
// storage.objects give each user their own first folder.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { describeOnEachDatabase } from './harness.ts';

const fixtures = new URL('./storage-fixtures/', import.meta.url).pathname;
const STORAGE_SCHEMA = { migrationsDir: `${fixtures}migrations`, seedFile: `${fixtures}seed.sql`, functionsDir: undefined };

const text = (body: string) => new Blob([body], { type: 'text/plain' });

describeOnEachDatabase(
  'Storage API',
  (fixture) => {
    const alice = randomUUID();
    const bob = randomUUID();
    let asAlice: SupabaseClient;
    let asBob: SupabaseClient;
    const client = async (sub: string) => fixture().asUser(sub);

    it('uploads into the own folder, and downloads the same bytes', async () => {
      asAlice = await client(alice);
      asBob = await client(bob);
      const { data, error } = await asAlice.storage.from('private').upload(`${alice}/notes/hello.txt`, text('hello'));
      expect(error).toBeNull();
      expect(data).toMatchObject({ path: `${alice}/notes/hello.txt`, fullPath: `private/${alice}/notes/hello.txt` });
      expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);
      const download = await asAlice.storage.from('private').download(`${alice}/notes/hello.txt`);
      expect(download.error).toBeNull();
      expect(await download.data!.text()).toBe('hello');
      expect(download.data!.type).toBe('text/plain');
      const row = await fixture().backend.db.query<{ owner: string; metadata: { size: number; mimetype: string } }>(
        `select owner::text, metadata from storage.objects where bucket_id = 'private' and name = $1`,
        [`${alice}/notes/hello.txt`],
      );
      expect(row.rows[0]).toMatchObject({ owner: alice, metadata: { size: 5, mimetype: 'text/plain' } });
    });

    it("refuses an upload into another user's folder with Storage's RLS answer, and stores nothing", async () => {
      const { error } = await asBob.storage.from('private').upload(`${alice}/intruder.txt`, text('x'));
      expect(error).toMatchObject({ message: 'new row violates row-level security policy', status: 400, statusCode: '403' });
      const { rows } = await fixture().backend.db.query(`select 1 from storage.objects where name = $1`, [`${alice}/intruder.txt`]);
      expect(rows).toHaveLength(0);
    });

    it("does not show or hand out another user's object", async () => {
      const download = await asBob.storage.from('private').download(`${alice}/notes/hello.txt`);
      expect(download.error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' });
      const signed = await asBob.storage.from('private').createSignedUrl(`${alice}/notes/hello.txt`, 60);
      expect(signed.error).toMatchObject({ statusCode: '404' });
      const list = await asBob.storage.from('private').list(alice);
      expect(list.data).toEqual([]);
      const removed = await asBob.storage.from('private').remove([`${alice}/notes/hello.txt`]);
      expect(removed.data).toEqual([]);
      expect((await asAlice.storage.from('private').download(`${alice}/notes/hello.txt`)).error).toBeNull();
    });

    it('refuses a second upload to the same path unless upsert, and replaces the bytes with it', async () => {
      const path = `${alice}/again.txt`;
      expect((await asAlice.storage.from('private').upload(path, text('one'))).error).toBeNull();
      const twice = await asAlice.storage.from('private').upload(path, text('two'));
      expect(twice.error).toMatchObject({ statusCode: '409', message: 'The resource already exists', status: 400 });
      expect((await asAlice.storage.from('private').upload(path, text('two'), { upsert: true })).error).toBeNull();
      expect(await (await asAlice.storage.from('private').download(path)).data!.text()).toBe('two');
      expect((await asAlice.storage.from('private').update(path, text('three'))).error).toBeNull();
      expect(await (await asAlice.storage.from('private').download(path)).data!.text()).toBe('three');
    });

    it("holds each bucket's size limit and MIME types", async () => {
      const big = await asAlice.storage.from('private').upload(`${alice}/big.txt`, text('x'.repeat(1001)));
      expect(big.error).toMatchObject({ statusCode: '413', message: 'The object exceeded the maximum allowed size' });
      const pdf = await asAlice.storage.from('private').upload(`${alice}/a.pdf`, new Blob(['%PDF'], { type: 'application/pdf' }));
      expect(pdf.error).toMatchObject({ statusCode: '415', message: 'mime type application/pdf is not supported' });
      const image = await asAlice.storage.from('private').upload(`${alice}/a.png`, new Blob(['png'], { type: 'image/png' }));
      expect(image.error).toBeNull();
      const { rows } = await fixture().backend.db.query(`select name from storage.objects where name in ($1, $2)`, [`${alice}/big.txt`, `${alice}/a.pdf`]);
      expect(rows).toHaveLength(0);
    });

    it('refuses object names with control characters or backslashes', async () => {
      const { error } = await asAlice.storage.from('private').upload(`${alice}/bad\u0007name.txt`, text('x'));
      expect(error).toMatchObject({ statusCode: '400', message: expect.stringContaining('Invalid key') });
    });

    it('lists one folder level with prefix, limit, offset and sort', async () => {
      for (const name of ['b.txt', 'a.txt', 'c.txt', 'sub/d.txt']) {
        expect((await asAlice.storage.from('private').upload(`${alice}/list/${name}`, text(name))).error).toBeNull();
      }
      const all = await asAlice.storage.from('private').list(`${alice}/list`);
      expect(all.error).toBeNull();
      expect(all.data!.map((entry) => entry.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'sub']);
      expect(all.data![3].id).toBeNull();
      expect(all.data![0].metadata).toMatchObject({ size: 5, mimetype: 'text/plain' });
      const page = await asAlice.storage.from('private').list(`${alice}/list`, { limit: 2, offset: 1 });
      expect(page.data!.map((entry) => entry.name)).toEqual(['b.txt', 'c.txt']);
      const desc = await asAlice.storage.from('private').list(`${alice}/list`, { sortBy: { column: 'name', order: 'desc' } });
      expect(desc.data!.map((entry) => entry.name)).toEqual(['sub', 'c.txt', 'b.txt', 'a.txt']);
      const search = await asAlice.storage.from('private').list(`${alice}/list`, { search: 'b' });
      expect(search.data!.map((entry) => entry.name)).toEqual(['b.txt']);
    });

    it('moves and copies within the own folder, never out of it', async () => {
      const from = `${alice}/move/from.txt`;
      expect((await asAlice.storage.from('private').upload(from, text('moving'))).error).toBeNull();
      expect((await asAlice.storage.from('private').move(from, `${alice}/move/to.txt`)).error).toBeNull();
      expect((await asAlice.storage.from('private').download(from)).error).toMatchObject({ statusCode: '404' });
      expect(await (await asAlice.storage.from('private').download(`${alice}/move/to.txt`)).data!.text()).toBe('moving');
      const copied = await asAlice.storage.from('private').copy(`${alice}/move/to.txt`, `${alice}/move/copy.txt`);
      expect(copied.error).toBeNull();
      expect(copied.data).toEqual({ path: `private/${alice}/move/copy.txt` });
      expect(await (await asAlice.storage.from('private').download(`${alice}/move/copy.txt`)).data!.text()).toBe('moving');
      const out = await asAlice.storage.from('private').move(`${alice}/move/to.txt`, `${bob}/stolen.txt`);
      expect(out.error).toMatchObject({ statusCode: '403' });
      const copyOut = await asAlice.storage.from('private').copy(`${alice}/move/to.txt`, `${bob}/stolen.txt`);
      expect(copyOut.error).toMatchObject({ statusCode: '403' });
      expect((await asAlice.storage.from('private').download(`${alice}/move/to.txt`)).error).toBeNull();
    });

    it('removes objects and their bytes', async () => {
      const path = `${alice}/remove/me.txt`;
      expect((await asAlice.storage.from('private').upload(path, text('bye'))).error).toBeNull();
      const removed = await asAlice.storage.from('private').remove([path, `${alice}/remove/absent.txt`]);
      expect(removed.error).toBeNull();
      expect(removed.data!.map((row) => row.name)).toEqual([path]);
      expect((await asAlice.storage.from('private').download(path)).error).toMatchObject({ statusCode: '404' });
    });

    it('signs URLs that download without a token until they expire', async () => {
      const path = `${alice}/signed.txt`;
      expect((await asAlice.storage.from('private').upload(path, text('signed'))).error).toBeNull();
      const { data, error } = await asAlice.storage.from('private').createSignedUrl(path, 60, { download: 'report.txt' });
      expect(error).toBeNull();
      const response = await fetch(data!.signedUrl);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('signed');
      expect(response.headers.get('content-disposition')).toBe("attachment; filename=report.txt; filename*=UTF-8''report.txt");
      const tampered = await fetch(data!.signedUrl.replace('signed.txt', 'again.txt'));
      expect(tampered.status).toBe(400);
      expect(await tampered.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
      const many = await asAlice.storage.from('private').createSignedUrls([path, `${alice}/absent.txt`], 60);
      expect(many.data![0]).toMatchObject({ path, error: null });
      expect(many.data![1]).toMatchObject({ error: 'Either the object does not exist or you do not have access to it', signedUrl: null });
      expect(await (await fetch(many.data![0].signedUrl!)).text()).toBe('signed');
      const expired = await fixture().token({ url: `private/${path}`, scope: 'download' }, -10);
      const late = await fetch(`${fixture().backend.url}/storage/v1/object/sign/private/${path}?token=${expired}`);
      expect(await late.json()).toMatchObject({ statusCode: '400' });
    });

    it('answers object info and exists', async () => {
      const path = `${alice}/info.txt`;
      expect((await asAlice.storage.from('private').upload(path, text('info'), { metadata: { note: 'n' } })).error).toBeNull();
      const { data, error } = await asAlice.storage.from('private').info(path);
      expect(error).toBeNull();
      expect(data).toMatchObject({ name: path, bucketId: 'private', size: 4, contentType: 'text/plain', metadata: { note: 'n' } });
      expect((await asAlice.storage.from('private').exists(path)).data).toBe(true);
      expect((await asAlice.storage.from('private').exists(`${alice}/nothing.txt`)).data).toBe(false);
    });

    it('serves public buckets to anyone and private ones to no one anonymous', async () => {
      expect((await asAlice.storage.from('public').upload('open.txt', text('open'))).error).toBeNull();
      const url = fixture().anon.storage.from('public').getPublicUrl('open.txt').data.publicUrl;
      expect(await (await fetch(url)).text()).toBe('open');
      const privateUrl = `${fixture().backend.url}/storage/v1/object/public/private/${alice}/signed.txt`;
      expect(await (await fetch(privateUrl)).json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
      const anonDownload = await fixture().anon.storage.from('private').download(`${alice}/signed.txt`);
      expect(anonDownload.error).toMatchObject({ statusCode: '404' });
    });

    it('manages buckets as the service role only', async () => {
      const denied = await asAlice.storage.createBucket('mine');
      expect(denied.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
      const service = fixture().service.storage;
      const created = await service.createBucket('made', { public: false, fileSizeLimit: '2MB', allowedMimeTypes: ['application/pdf'] });
      expect(created).toEqual({ data: { name: 'made' }, error: null });
      expect((await service.createBucket('made')).error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
      const bucket = await service.getBucket('made');
      expect(bucket.data).toMatchObject({ id: 'made', public: false, file_size_limit: 2_000_000, allowed_mime_types: ['application/pdf'] });
      expect((await service.listBuckets()).data!.map((b) => b.id)).toEqual(expect.arrayContaining(['made', 'private', 'public']));
      expect((await asAlice.storage.listBuckets()).data).toEqual([]);
      expect((await service.updateBucket('made', { public: true })).error).toBeNull();
      expect((await service.getBucket('made')).data!.public).toBe(true);
      expect((await service.getBucket('nope')).error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
      expect((await service.deleteBucket('private')).error).toMatchObject({ statusCode: '409' });
      expect((await service.deleteBucket('made')).error).toBeNull();
      expect((await service.createBucket('bad/name')).error).toMatchObject({ message: 'Bucket name invalid' });
    });

    it('refuses a bad token, and an upload to a bucket that is not there', async () => {
      const forged = await fetch(`${fixture().backend.url}/storage/v1/object/list/private`, {
        method: 'POST',
        headers: { Authorization: 'Bearer not-a-jwt', 'Content-Type': 'application/json' },
        body: JSON.stringify({ prefix: '' }),
      });
      expect(forged.status).toBe(400);
      expect(await forged.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
      const missing = await asAlice.storage.from('nowhere').upload(`${alice}/x.txt`, text('x'));
      expect(missing.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    });

    it('keeps direct deletes of storage rows out, as hosted Storage does', async () => {
      await expect(fixture().backend.db.query(`delete from storage.objects where bucket_id = 'public'`)).rejects.toThrow(/Direct deletion/);
    });
  },
  STORAGE_SCHEMA,
);
