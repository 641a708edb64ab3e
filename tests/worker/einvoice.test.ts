// E-invoices inside workerd, where they are made in production (decision
// 049, 052): the UBL and CII writers and the Factur-X PDF (pdf-lib), read back
// here with pdf-lib and a strict XML parser: the PDF carries factur-x.xml,
// related as /Data and listed in /AF, and it is the invoice's CII. Then the
// download routes through the built Worker, per caller.
import { beforeAll, describe, expect, it } from 'vitest';
import { CII_NS, renderEInvoiceXml, renderFacturXPdf, UBL_CUSTOMIZATION_ID, UBL_NS } from '../../app/features/invoices/einvoice/index.ts';
import { embeddedFiles, parseXml, sampleSeller, text } from '../support/einvoice.ts';
import { pdfaProblems } from '../support/pdfa.ts';
import { sampleInvoice } from '../support/quote-pdf-samples.ts';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, runSql } from './support/backend';
import { joinAs } from './support/settings';

const input = () => ({ invoice: sampleInvoice(2), seller: sampleSeller(), buyer: { country: 'FR' } });

describe('e-invoices in workerd', () => {
  it('writes UBL and CII that parse back', () => {
    const ubl = parseXml(renderEInvoiceXml(input(), 'ubl')).documentElement!;
    expect(text(ubl, 'cbc:CustomizationID', UBL_NS)).toBe(UBL_CUSTOMIZATION_ID);
    expect(text(ubl, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount', UBL_NS)).toBe('685.22');
    const cii = parseXml(renderEInvoiceXml(input(), 'cii')).documentElement!;
    expect(text(cii, 'rsm:ExchangedDocument/ram:ID', CII_NS)).toBe('INV-2026-0042');
  });

  it('makes a Factur-X PDF with the CII attached as factur-x.xml', async () => {
    const bytes = await renderFacturXPdf(input());
    const { files, xmp } = await embeddedFiles(bytes);
    expect(files.map(({ name, relationship, subtype, inCatalogAF }) => ({ name, relationship, subtype, inCatalogAF }))).toEqual([
      { name: 'factur-x.xml', relationship: 'Data', subtype: 'text/xml', inCatalogAF: true },
    ]);
    expect(files[0].xml).toBe(renderEInvoiceXml(input(), 'cii'));
    const cii = parseXml(files[0].xml).documentElement!;
    const sums = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation';
    expect(text(cii, `${sums}/ram:DuePayableAmount`, CII_NS)).toBe('342.61');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
  });

  it('makes it PDF/A-3b as far as its structure shows: DejaVu embedded and subset, sRGB output intent, XMP, file ID (decision 052)', async () => {
    const bytes = await renderFacturXPdf(input());
    expect(await pdfaProblems(bytes)).toEqual([]);
    // The same bytes as in Node: nothing in the font subset or the ICC profile depends on the runtime.
    expect(await renderFacturXPdf(input())).toEqual(bytes);
  });
});

// The routes, through the built Worker, per caller.
const UBL = { ...UBL_NS, ubl: UBL_NS.invoice };

describe('/invoices/:id/einvoice.xml and /invoices/:id/facturx.pdf', () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  let admin: Visitor;
  let adminEmail: string;
  let other: Visitor;

  /** A new invoice through the New Invoice dialog, addressed to `clientEmail`; its id. */
  async function createInvoice(clientEmail: string): Promise<string> {
    const response = await admin.post('/invoices?new', {
      client_name: 'Acme Ltd', client_email: clientEmail, description: 'Consulting & design', unit_price: '1299.50', quantity: '2',
      currency: 'EUR', due_date: day(30), notes: '',
    });
    expect(response.status).toBe(302);
    const id = /href="\/invoices\/([0-9a-f-]{36})"/.exec(await pageText(await admin.follow(response)))?.[1];
    if (!id) throw new Error('no invoice link on the list');
    return id;
  }

  beforeAll(async () => {
    ({ visitor: admin, email: adminEmail } = await signUpFreshAdmin());
    other = (await signUpFreshAdmin()).visitor;
  });

  it('answers whoever may read the invoice (staff; its client once sent), no one else', async () => {
    const { accountId } = await accountOf(adminEmail);
    const client = await joinAs(accountId, 'client');
    const id = await createInvoice(client.email);
    const paths = [`/invoices/${id}/einvoice.xml?format=ubl`, `/invoices/${id}/einvoice.xml?format=cii`, `/invoices/${id}/facturx.pdf`];
    for (const path of paths) expect((await client.visitor.get(path)).status, path).toBe(404);
    expect((await admin.post(`/invoices/${id}`, { intent: 'send' })).status).toBe(302);
    for (const path of paths) {
      expect((await other.get(path)).status, path).toBe(404);
      expect((await new Visitor().get(path)).status, path).toBe(302);
      for (const visitor of [admin, client.visitor]) {
        const response = await visitor.get(path);
        // TODO(h-seller): with the seller's snapshot read (einvoice-document.server.ts)
        // these are 200: parse the XML / the PDF's factur-x.xml back here.
        expect(response.status, path).toBe(409);
        expect(await response.text()).toBe(
          "This invoice cannot be made an e-invoice yet. The e-invoice needs: the seller's country (Settings → Account), the client's country (Clients → the client → Edit).",
        );
      }
    }
  });

  it('downloads once the seller and the client have a country: the seller as the invoice was sent, the client\'s own country (BT-55), in UBL, CII and the Factur-X PDF', async () => {
    const { accountId } = await accountOf(adminEmail);
    await runSql(`update public.accounts set country = 'DE', tax_id = 'DE123456789', city = 'Hamburg' where id = '${accountId}'`);
    const id = await createInvoice('billing@acme.test');
    expect((await admin.post(`/invoices/${id}`, { intent: 'send' })).status).toBe(302);
    // The client has no country yet: refused, naming it, rather than assuming the seller's (decision 052).
    const unknown = await admin.get(`/invoices/${id}/einvoice.xml?format=ubl`);
    expect(unknown.status).toBe(409);
    expect(await unknown.text()).toBe("This invoice cannot be made an e-invoice yet. The e-invoice needs: the client's country (Clients → the client → Edit).");
    // Set on the client's form, as a person would.
    const contactId = /"\/clients\/([0-9a-f-]{36})"/.exec(await pageText(await admin.get(`/clients?q=${encodeURIComponent('billing@acme.test')}`)))?.[1];
    expect(contactId).toBeTruthy();
    const edited = await admin.post(`/clients/${contactId}?edit`, {
      intent: 'update', name: 'Acme Ltd', email: 'billing@acme.test', company: 'Acme Ltd', phone: '', role: '', status: 'active', address: '1 Rue de Rivoli\n75001 Paris', country: 'FR', notes: '',
    });
    expect(edited.status).toBe(302);
    // Changed after sending: the e-invoice keeps what was sent.
    await runSql(`update public.accounts set tax_id = 'DE999999999' where id = '${accountId}'`);
    const ubl = await admin.get(`/invoices/${id}/einvoice.xml?format=ubl`);
    expect(ubl.status).toBe(200);
    const party = parseXml(await ubl.text()).documentElement!;
    expect(text(party, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID', UBL)).toBe('DE123456789');
    expect(text(party, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode', UBL)).toBe('DE');
    expect(text(party, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode', UBL)).toBe('FR');
    expect(text(party, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:StreetName', UBL)).toBe('1 Rue de Rivoli');
    const cii = await admin.get(`/invoices/${id}/einvoice.xml?format=cii`);
    expect(cii.status).toBe(200);
    expect(parseXml(await cii.text()).documentElement!.namespaceURI).toBe(CII_NS.rsm);
    const pdf = await admin.get(`/invoices/${id}/facturx.pdf`);
    expect(pdf.status).toBe(200);
    const pdfBytes = new Uint8Array(await pdf.arrayBuffer());
    const { files } = await embeddedFiles(pdfBytes);
    expect(files.map((f) => f.name)).toEqual(['factur-x.xml']);
    expect(files[0].xml).toContain('DE123456789');
    expect(text(parseXml(files[0].xml).documentElement!, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:PostalTradeAddress/ram:CountryID', CII_NS)).toBe('FR');
    expect(await pdfaProblems(pdfBytes)).toEqual([]);
  });

  it('refuses another format and an id that is no invoice', async () => {
    const id = await createInvoice('billing@acme.test');
    const wrong = await admin.get(`/invoices/${id}/einvoice.xml?format=pdf`);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toBe('Choose format=ubl or format=cii.');
    expect((await admin.get('/invoices/not-a-uuid/einvoice.xml')).status).toBe(404);
    expect((await admin.get('/invoices/00000000-0000-4000-8000-000000000000/facturx.pdf')).status).toBe(404);
  });
});
