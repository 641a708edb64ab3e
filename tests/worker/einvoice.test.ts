// E-invoices inside workerd, where they are made in production (decision
// 049): the UBL and CII writers and the Factur-X PDF (pdf-lib), read back
// here with pdf-lib and a strict XML parser: the PDF carries factur-x.xml,
// related as /Data and listed in /AF, and it is the invoice's CII.
import { describe, expect, it } from 'vitest';
import { CII_NS, renderEInvoiceXml, renderFacturXPdf, UBL_CUSTOMIZATION_ID, UBL_NS } from '../../app/features/invoices/einvoice/index.ts';
import { embeddedFiles, parseXml, sampleSeller, text } from '../support/einvoice.ts';
import { sampleInvoice } from '../support/quote-pdf-samples.ts';

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
});
