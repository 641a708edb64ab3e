// E-invoices (decision 049): each invoice as UBL 2.1 (Peppol BIS 3.0) and as
// CII (Factur-X EN 16931), parsed back strictly, every mandatory EN 16931
// term we map checked against the invoice; the Factur-X PDF carries the CII.
import type { Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import {
  CII_GUIDELINE_ID,
  CII_NS,
  EInvoiceIncomplete,
  FACTURX_NS,
  renderEInvoiceXml,
  renderFacturXPdf,
  UBL_CUSTOMIZATION_ID,
  UBL_NS,
  UBL_PROFILE_ID,
  type EInvoiceInput,
} from '../../app/features/invoices/einvoice/index.ts';
import { all, embeddedFiles, parseXml, sampleSeller, text } from '../support/einvoice.ts';
import { loadPdf, pageTexts } from '../support/pdf.ts';
import { pdfaProblems } from '../support/pdfa.ts';
import { renderInvoicePdf } from '../../app/features/invoices/pdf/invoice-layout.ts';
import { sampleInvoice } from '../support/quote-pdf-samples.ts';

const UBL = { ...UBL_NS, ubl: UBL_NS.invoice };
const CII = CII_NS;

// Two lines (sampleItems): 2 × 126.00 + 3 × 127.00 = 633.00; tax 8.25% = 52.22; total 685.22; 342.61 paid.
const input = (changes: Partial<EInvoiceInput> = {}): EInvoiceInput => ({
  invoice: sampleInvoice(2),
  seller: sampleSeller(),
  buyer: { address: 'Rue de la Paix 1\n75002 Paris', country: 'FR', taxId: 'FR40303265045' },
  ...changes,
});

describe('UBL 2.1, Peppol BIS Billing 3.0', () => {
  const doc = parseXml(renderEInvoiceXml(input(), 'ubl'));
  const root = doc.documentElement!;
  const t = (path: string) => text(root, path, UBL);

  it('is an Invoice in the UBL namespace with the Peppol customization and profile', () => {
    expect(root.namespaceURI).toBe(UBL_NS.invoice);
    expect(root.localName).toBe('Invoice');
    expect(t('cbc:CustomizationID')).toBe(UBL_CUSTOMIZATION_ID);
    expect(t('cbc:ProfileID')).toBe(UBL_PROFILE_ID);
    expect(t('cbc:InvoiceTypeCode')).toBe('380');
  });

  it('carries number, dates and currency (BT-1, BT-2, BT-9, BT-5, BT-10)', () => {
    expect(t('cbc:ID')).toBe('INV-2026-0042');
    expect(t('cbc:IssueDate')).toBe('2026-11-21');
    expect(t('cbc:DueDate')).toBe('2026-12-05');
    expect(t('cbc:DocumentCurrencyCode')).toBe('EUR');
    expect(t('cbc:BuyerReference')).toBe('INV-2026-0042');
  });

  it('names the seller with address, VAT number and registration (BG-4: BT-27, BT-31, BT-40)', () => {
    const party = 'cac:AccountingSupplierParty/cac:Party';
    expect(t(`${party}/cac:PartyLegalEntity/cbc:RegistrationName`)).toBe('Northwind Trading GmbH');
    expect(t(`${party}/cac:PartyLegalEntity/cbc:CompanyID`)).toBe('HRB 12345');
    expect(t(`${party}/cac:PartyTaxScheme/cbc:CompanyID`)).toBe('DE123456789');
    expect(t(`${party}/cac:PartyTaxScheme/cac:TaxScheme/cbc:ID`)).toBe('VAT');
    expect(t(`${party}/cac:PostalAddress/cbc:StreetName`)).toBe('Hafenstraße 12');
    expect(t(`${party}/cac:PostalAddress/cbc:AdditionalStreetName`)).toBe('Gebäude B');
    expect(t(`${party}/cac:PostalAddress/cbc:CityName`)).toBe('Hamburg');
    expect(t(`${party}/cac:PostalAddress/cbc:PostalZone`)).toBe('20457');
    expect(t(`${party}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`)).toBe('DE');
    expect(t(`${party}/cbc:EndpointID`)).toBe('billing@northwind.example');
    expect(all(root, `${party}/cbc:EndpointID`, UBL)[0].getAttribute('schemeID')).toBe('EM');
  });

  it('names the buyer from the invoice\'s client (BG-7: BT-44, BT-48, BT-55)', () => {
    const party = 'cac:AccountingCustomerParty/cac:Party';
    expect(t(`${party}/cac:PartyLegalEntity/cbc:RegistrationName`)).toBe('Compiler Works');
    expect(t(`${party}/cac:PartyTaxScheme/cbc:CompanyID`)).toBe('FR40303265045');
    expect(t(`${party}/cac:PostalAddress/cbc:StreetName`)).toBe('Rue de la Paix 1');
    expect(t(`${party}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`)).toBe('FR');
    expect(t(`${party}/cbc:EndpointID`)).toBe('grace@cobol.example');
  });

  it('has payment means with the IBAN and BIC and the payment terms (BG-16: BT-81, BT-83, BT-84, BT-86; BT-20)', () => {
    expect(t('cac:PaymentMeans/cbc:PaymentMeansCode')).toBe('58');
    expect(t('cac:PaymentMeans/cbc:PaymentID')).toBe('INV-2026-0042');
    expect(t('cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID')).toBe('DE89370400440532013000');
    expect(t('cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID')).toBe('COBADEFFXXX');
    expect(t('cac:PaymentTerms/cbc:Note')).toBe('Payable within 14 days, no deduction.');
  });

  it('breaks the tax down (BG-23: BT-110, BT-116..BT-119)', () => {
    expect(t('cac:TaxTotal/cbc:TaxAmount')).toBe('52.22');
    expect(all(root, 'cac:TaxTotal/cbc:TaxAmount', UBL)[0].getAttribute('currencyID')).toBe('EUR');
    const sub = 'cac:TaxTotal/cac:TaxSubtotal';
    expect(all(root, sub, UBL)).toHaveLength(1);
    expect(t(`${sub}/cbc:TaxableAmount`)).toBe('633.00');
    expect(t(`${sub}/cbc:TaxAmount`)).toBe('52.22');
    expect(t(`${sub}/cac:TaxCategory/cbc:ID`)).toBe('S');
    expect(t(`${sub}/cac:TaxCategory/cbc:Percent`)).toBe('8.25');
    expect(t(`${sub}/cac:TaxCategory/cac:TaxScheme/cbc:ID`)).toBe('VAT');
  });

  it('totals add up (BG-22: BT-106, BT-109, BT-112, BT-113, BT-115)', () => {
    const totals = 'cac:LegalMonetaryTotal';
    expect(t(`${totals}/cbc:LineExtensionAmount`)).toBe('633.00');
    expect(t(`${totals}/cbc:TaxExclusiveAmount`)).toBe('633.00');
    expect(t(`${totals}/cbc:TaxInclusiveAmount`)).toBe('685.22');
    expect(t(`${totals}/cbc:PrepaidAmount`)).toBe('342.61');
    expect(t(`${totals}/cbc:PayableAmount`)).toBe('342.61');
    const amounts = Array.from(all(root, totals, UBL)[0].childNodes as unknown as ArrayLike<Element>).filter((node) => node.nodeType === 1);
    expect(amounts).toHaveLength(5);
    for (const amount of amounts) expect(amount.getAttribute('currencyID')).toBe('EUR');
  });

  it('has each line with id, quantity, unit, net amount, price and VAT (BG-25: BT-126..BT-131, BT-146, BT-151..BT-153)', () => {
    const lines = all(root, 'cac:InvoiceLine', UBL);
    expect(lines).toHaveLength(2);
    const invoice = sampleInvoice(2);
    lines.forEach((line, index) => {
      const lt = (path: string) => text(line, path, UBL);
      const item = invoice.items[index];
      expect(lt('cbc:ID')).toBe(String(index + 1));
      expect(lt('cbc:InvoicedQuantity')).toBe(String(item.quantity));
      expect(all(line, 'cbc:InvoicedQuantity', UBL)[0].getAttribute('unitCode')).toBe('C62');
      expect(lt('cbc:LineExtensionAmount')).toBe((Number(item.lineTotal) / 100).toFixed(2));
      expect(lt('cac:Price/cbc:PriceAmount')).toBe((Number(item.unitPrice) / 100).toFixed(2));
      expect(lt('cac:Item/cbc:Name')).toBe(item.description);
      expect(lt('cac:Item/cac:ClassifiedTaxCategory/cbc:ID')).toBe('S');
      expect(lt('cac:Item/cac:ClassifiedTaxCategory/cbc:Percent')).toBe('8.25');
    });
  });
});

describe('CII, Factur-X EN 16931', () => {
  const doc = parseXml(renderEInvoiceXml(input(), 'cii'));
  const root = doc.documentElement!;
  const t = (path: string) => text(root, path, CII);
  const tx = 'rsm:SupplyChainTradeTransaction';
  const agreement = `${tx}/ram:ApplicableHeaderTradeAgreement`;
  const settlement = `${tx}/ram:ApplicableHeaderTradeSettlement`;

  it('is a CrossIndustryInvoice with the EN 16931 guideline', () => {
    expect(root.namespaceURI).toBe(CII_NS.rsm);
    expect(root.localName).toBe('CrossIndustryInvoice');
    expect(t('rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID')).toBe(CII_GUIDELINE_ID);
    expect(t('rsm:ExchangedDocument/ram:TypeCode')).toBe('380');
  });

  it('carries number, dates and currency (BT-1, BT-2, BT-9, BT-5)', () => {
    expect(t('rsm:ExchangedDocument/ram:ID')).toBe('INV-2026-0042');
    expect(t('rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString')).toBe('20261121');
    expect(all(root, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString', CII)[0].getAttribute('format')).toBe('102');
    expect(t(`${settlement}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`)).toBe('20261205');
    expect(t(`${settlement}/ram:InvoiceCurrencyCode`)).toBe('EUR');
  });

  it('names seller and buyer (BT-27, BT-31, BT-40, BT-44, BT-55)', () => {
    expect(t(`${agreement}/ram:SellerTradeParty/ram:Name`)).toBe('Northwind Trading GmbH');
    expect(t(`${agreement}/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID`)).toBe('DE123456789');
    expect(all(root, `${agreement}/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID`, CII)[0].getAttribute('schemeID')).toBe('VA');
    expect(t(`${agreement}/ram:SellerTradeParty/ram:PostalTradeAddress/ram:CountryID`)).toBe('DE');
    expect(t(`${agreement}/ram:SellerTradeParty/ram:PostalTradeAddress/ram:LineOne`)).toBe('Hafenstraße 12');
    expect(t(`${agreement}/ram:BuyerTradeParty/ram:Name`)).toBe('Compiler Works');
    expect(t(`${agreement}/ram:BuyerTradeParty/ram:PostalTradeAddress/ram:CountryID`)).toBe('FR');
  });

  it('has payment means, tax breakdown and totals (BG-16, BT-84, BG-23, BT-106..BT-115)', () => {
    expect(t(`${settlement}/ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode`)).toBe('58');
    expect(t(`${settlement}/ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID`)).toBe('DE89370400440532013000');
    expect(t(`${settlement}/ram:ApplicableTradeTax/ram:CalculatedAmount`)).toBe('52.22');
    expect(t(`${settlement}/ram:ApplicableTradeTax/ram:BasisAmount`)).toBe('633.00');
    expect(t(`${settlement}/ram:ApplicableTradeTax/ram:CategoryCode`)).toBe('S');
    expect(t(`${settlement}/ram:ApplicableTradeTax/ram:RateApplicablePercent`)).toBe('8.25');
    const sums = `${settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
    expect(t(`${sums}/ram:LineTotalAmount`)).toBe('633.00');
    expect(t(`${sums}/ram:TaxBasisTotalAmount`)).toBe('633.00');
    expect(t(`${sums}/ram:TaxTotalAmount`)).toBe('52.22');
    expect(all(root, `${sums}/ram:TaxTotalAmount`, CII)[0].getAttribute('currencyID')).toBe('EUR');
    expect(t(`${sums}/ram:GrandTotalAmount`)).toBe('685.22');
    expect(t(`${sums}/ram:TotalPrepaidAmount`)).toBe('342.61');
    expect(t(`${sums}/ram:DuePayableAmount`)).toBe('342.61');
  });

  it('has each line (BT-126, BT-129, BT-130, BT-131, BT-146, BT-153)', () => {
    const lines = all(root, `${tx}/ram:IncludedSupplyChainTradeLineItem`, CII);
    expect(lines).toHaveLength(2);
    const invoice = sampleInvoice(2);
    lines.forEach((line, index) => {
      const lt = (path: string) => text(line, path, CII);
      const item = invoice.items[index];
      expect(lt('ram:AssociatedDocumentLineDocument/ram:LineID')).toBe(String(index + 1));
      expect(lt('ram:SpecifiedTradeProduct/ram:Name')).toBe(item.description);
      expect(lt('ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount')).toBe((Number(item.unitPrice) / 100).toFixed(2));
      expect(lt('ram:SpecifiedLineTradeDelivery/ram:BilledQuantity')).toBe(String(item.quantity));
      expect(all(line, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity', CII)[0].getAttribute('unitCode')).toBe('C62');
      expect(lt('ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount')).toBe(
        (Number(item.lineTotal) / 100).toFixed(2),
      );
      expect(lt('ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode')).toBe('S');
    });
  });
});

describe('the cases around the sample', () => {
  it('writes a discount as a document-level allowance that the totals subtract (BG-20, BT-107)', () => {
    const invoice = sampleInvoice(2, { discountPercent: 10, discount: '6330', tax: '4700', total: '61670', amountPaid: '0', payments: [] });
    for (const format of ['ubl', 'cii'] as const) {
      const root = parseXml(renderEInvoiceXml(input({ invoice }), format)).documentElement!;
      if (format === 'ubl') {
        expect(text(root, 'cac:AllowanceCharge/cbc:ChargeIndicator', UBL)).toBe('false');
        expect(text(root, 'cac:AllowanceCharge/cbc:Amount', UBL)).toBe('63.30');
        expect(text(root, 'cac:AllowanceCharge/cbc:MultiplierFactorNumeric', UBL)).toBe('10');
        expect(text(root, 'cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount', UBL)).toBe('63.30');
        expect(text(root, 'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount', UBL)).toBe('569.70');
        expect(text(root, 'cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount', UBL)).toBe('569.70');
        expect(text(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount', UBL)).toBe('616.70');
        expect(all(root, 'cac:LegalMonetaryTotal/cbc:PrepaidAmount', UBL)).toHaveLength(0);
      } else {
        const s = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
        expect(text(root, `${s}/ram:SpecifiedTradeAllowanceCharge/ram:ChargeIndicator/udt:Indicator`, CII)).toBe('false');
        expect(text(root, `${s}/ram:SpecifiedTradeAllowanceCharge/ram:ActualAmount`, CII)).toBe('63.30');
        expect(text(root, `${s}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:AllowanceTotalAmount`, CII)).toBe('63.30');
        expect(text(root, `${s}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxBasisTotalAmount`, CII)).toBe('569.70');
        expect(text(root, `${s}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount`, CII)).toBe('616.70');
      }
    }
  });

  it('without tax: zero rated for a seller with a VAT number, not subject to VAT (with a reason) for one without', () => {
    const untaxed = sampleInvoice(2, { taxRate: 0, tax: '0', total: '63300', amountPaid: '0', payments: [] });
    const zero = parseXml(renderEInvoiceXml(input({ invoice: untaxed }), 'ubl')).documentElement!;
    expect(text(zero, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID', UBL)).toBe('Z');
    expect(text(zero, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent', UBL)).toBe('0');
    const outside = parseXml(renderEInvoiceXml(input({ invoice: untaxed, seller: sampleSeller({ tax_id: null }) }), 'ubl')).documentElement!;
    expect(text(outside, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID', UBL)).toBe('O');
    expect(all(outside, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent', UBL)).toHaveLength(0);
    expect(text(outside, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReason', UBL)).toBe('Not subject to VAT');
    expect(all(outside, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme', UBL)).toHaveLength(0);
    // BR-O-02: no VAT number for the buyer either, though one is known.
    expect(all(outside, 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme', UBL)).toHaveLength(0);
  });

  it('writes a tax number that is no VAT number as a tax registration (BT-32), and refuses standard VAT without any', () => {
    const seller = sampleSeller({ tax_id: '12-3456789', country: 'US' });
    const ubl = parseXml(renderEInvoiceXml(input({ seller }), 'ubl')).documentElement!;
    const schemes = all(ubl, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme', UBL);
    expect(schemes).toHaveLength(1);
    expect(text(schemes[0], 'cbc:CompanyID', UBL)).toBe('12-3456789');
    expect(text(schemes[0], 'cac:TaxScheme/cbc:ID', UBL)).toBe('TAX');
    const cii = parseXml(renderEInvoiceXml(input({ seller }), 'cii')).documentElement!;
    const registrations = all(cii, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID', CII);
    expect(registrations.map((node) => [node.getAttribute('schemeID'), node.textContent])).toEqual([['FC', '12-3456789']]);
    // A VAT number as people type it is written as the standard asks.
    const spaced = parseXml(renderEInvoiceXml(input({ seller: sampleSeller({ tax_id: 'de 123.456.789' }) }), 'ubl')).documentElement!;
    expect(text(spaced, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID', UBL)).toBe('DE123456789');
    expect(() => renderEInvoiceXml(input({ seller: sampleSeller({ tax_id: null }) }), 'ubl')).toThrow(
      "The e-invoice needs: the seller's VAT or tax number (Settings → Account).",
    );
  });

  it('escapes what a person typed and leaves out what they did not', () => {
    const invoice = sampleInvoice(1, {
      contact: { name: 'Tom', email: null, company: 'Smith & Sons <"Ltd"> \u0007' },
      notes: "5 < 6 & 'quoted'",
      items: [{ description: 'Design & <build>', quantity: '1.5', unitPrice: '10000', lineTotal: '15000' }],
      subtotal: '15000', taxRate: 20, tax: '3000', total: '18000', amountPaid: '0', payments: [],
    });
    const seller = sampleSeller({ iban: null, bic: null, address_line2: '  ', payment_terms: null });
    for (const format of ['ubl', 'cii'] as const) {
      const xml = renderEInvoiceXml({ invoice, seller, buyer: { country: 'at' } }, format);
      const root = parseXml(xml).documentElement!;
      const ns = format === 'ubl' ? UBL : CII;
      const buyerName = format === 'ubl' ? 'cac:AccountingCustomerParty/cac:Party/cac:PartyName/cbc:Name' : 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:Name';
      expect(text(root, buyerName, ns)).toBe('Smith & Sons <"Ltd">');
      expect(xml).not.toMatch(/<[A-Za-z][^>]*[^/]>\s*<\//); // no empty elements
      if (format === 'ubl') {
        expect(text(root, 'cbc:Note', UBL)).toBe("5 < 6 & 'quoted'");
        expect(text(root, 'cac:InvoiceLine/cbc:InvoicedQuantity', UBL)).toBe('1.5');
        expect(all(root, 'cac:PaymentMeans', UBL)).toHaveLength(0);
        expect(all(root, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:AdditionalStreetName', UBL)).toHaveLength(0);
        // No client address known, only its country: BT-55 is the client's own (decision 052), not the seller's DE.
        expect(text(root, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode', UBL)).toBe('AT');
        expect(all(root, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:StreetName', UBL)).toHaveLength(0);
        expect(all(root, 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID', UBL)).toHaveLength(0);
      }
    }
  });

  it('writes amounts past 2^53 cents exactly', () => {
    const invoice = sampleInvoice(1, {
      items: [{ description: 'Big', quantity: 1, unitPrice: '999999999999999999', lineTotal: '999999999999999999' }],
      subtotal: '999999999999999999', taxRate: null, tax: '0', total: '999999999999999999', amountPaid: '1', payments: [],
    });
    const root = parseXml(renderEInvoiceXml(input({ invoice }), 'ubl')).documentElement!;
    expect(text(root, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount', UBL)).toBe('9999999999999999.99');
    expect(text(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount', UBL)).toBe('9999999999999999.98');
  });

  it('writes yen in whole yen: the stored half yen of tax and discount rounded, the sums from the rounded parts (BR-CO-10, -13, -15, -16)', () => {
    // ¥1,005 + ¥2 × ¥500: subtotal ¥2,005; 10 % discount ¥200.50 (stored in hundredths);
    // 10 % tax on ¥1,804.50 = ¥180.45; total ¥1,984.95; ¥1,000 paid.
    const invoice = sampleInvoice(2, {
      currency: 'JPY',
      items: [
        { description: 'Setup', quantity: 1, unitPrice: '100500', lineTotal: '100500' },
        { description: 'Hours', quantity: 2, unitPrice: '50000', lineTotal: '100000' },
      ],
      subtotal: '200500', discountPercent: 10, discount: '20050', taxRate: 10, tax: '18045', total: '198495',
      amountPaid: '100000', payments: [],
    });
    const seller = sampleSeller({ iban: null, bic: null });
    const ubl = parseXml(renderEInvoiceXml(input({ invoice, seller }), 'ubl')).documentElement!;
    const u = (path: string) => text(ubl, path, UBL);
    expect(u('cbc:DocumentCurrencyCode')).toBe('JPY');
    expect(all(ubl, 'cac:InvoiceLine', UBL).map((line) => [text(line, 'cbc:LineExtensionAmount', UBL), text(line, 'cac:Price/cbc:PriceAmount', UBL)])).toEqual([
      ['1005', '1005'],
      ['1000', '500'],
    ]);
    expect(u('cac:AllowanceCharge/cbc:Amount')).toBe('201');
    expect(u('cac:AllowanceCharge/cbc:BaseAmount')).toBe('2005');
    expect(u('cac:TaxTotal/cbc:TaxAmount')).toBe('180');
    expect(u('cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount')).toBe('1804');
    expect(u('cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount')).toBe('180');
    const totals = 'cac:LegalMonetaryTotal';
    expect(u(`${totals}/cbc:LineExtensionAmount`)).toBe('2005');
    expect(u(`${totals}/cbc:AllowanceTotalAmount`)).toBe('201');
    expect(u(`${totals}/cbc:TaxExclusiveAmount`)).toBe('1804');
    expect(u(`${totals}/cbc:TaxInclusiveAmount`)).toBe('1984');
    expect(u(`${totals}/cbc:PrepaidAmount`)).toBe('1000');
    expect(u(`${totals}/cbc:PayableAmount`)).toBe('984');

    const cii = parseXml(renderEInvoiceXml(input({ invoice, seller }), 'cii')).documentElement!;
    const s = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
    const sums = `${s}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
    expect(text(cii, `${s}/ram:ApplicableTradeTax/ram:CalculatedAmount`, CII)).toBe('180');
    expect(text(cii, `${s}/ram:ApplicableTradeTax/ram:BasisAmount`, CII)).toBe('1804');
    expect(text(cii, `${sums}/ram:TaxTotalAmount`, CII)).toBe('180');
    expect(text(cii, `${sums}/ram:GrandTotalAmount`, CII)).toBe('1984');
    expect(text(cii, `${sums}/ram:DuePayableAmount`, CII)).toBe('984');
    // Not one amount in either syntax has a decimal point.
    for (const root of [ubl, cii]) {
      const amounts = Array.from(root.getElementsByTagName('*') as unknown as ArrayLike<Element>).filter((node) => node.hasAttribute('currencyID') || /Amount$/.test(node.localName ?? ''));
      expect(amounts.length).toBeGreaterThan(5);
      for (const node of amounts) expect(node.textContent).toMatch(/^-?\d+$/);
    }
  });

  it('without a due date says the invoice is due on receipt (BR-CO-25)', () => {
    const root = parseXml(renderEInvoiceXml(input({ invoice: sampleInvoice(1, { dueDate: null }), seller: sampleSeller({ payment_terms: null }) }), 'ubl')).documentElement!;
    expect(all(root, 'cbc:DueDate', UBL)).toHaveLength(0);
    expect(text(root, 'cac:PaymentTerms/cbc:Note', UBL)).toBe('Due on receipt');
  });

  it('refuses, naming what is missing, when a mandatory term has no value', () => {
    const attempt = () => renderEInvoiceXml(input({ seller: sampleSeller({ name: ' ', country: null }) }), 'ubl');
    expect(attempt).toThrow(EInvoiceIncomplete);
    expect(attempt).toThrow("The e-invoice needs: the seller's name, the seller's country (Settings → Account).");
    expect(() => renderEInvoiceXml(input({ invoice: sampleInvoice(1, { invoiceNumber: '' }) }), 'cii')).toThrow('an invoice number');
    // The buyer's country (BT-55, BR-11) is the client's: not known, not assumed (decision 052).
    for (const buyer of [{}, { country: null }, { country: 'France' }, { address: 'Rue de la Paix 1', country: '  ' }]) {
      expect(() => renderEInvoiceXml(input({ buyer }), 'ubl')).toThrow("The e-invoice needs: the client's country (Clients → the client → Edit).");
    }
  });
});

describe('Factur-X PDF', () => {
  it('is the invoice PDF with the CII XML embedded as factur-x.xml (/AF, /Data) and the Factur-X XMP', async () => {
    const bytes = await renderFacturXPdf(input());
    const { files, xmp } = await embeddedFiles(bytes);
    expect(files).toHaveLength(1);
    const [file] = files;
    expect(file.name).toBe('factur-x.xml');
    expect(file.relationship).toBe('Data');
    expect(file.subtype).toBe('text/xml');
    expect(file.inCatalogAF).toBe(true);
    expect(file.xml).toBe(renderEInvoiceXml(input(), 'cii'));
    expect(text(parseXml(file.xml).documentElement!, 'rsm:ExchangedDocument/ram:ID', CII)).toBe('INV-2026-0042');

    const meta = parseXml(xmp!);
    const fx = (local: string) => meta.getElementsByTagNameNS(FACTURX_NS, local)[0]?.textContent;
    expect(fx('DocumentType')).toBe('INVOICE');
    expect(fx('DocumentFileName')).toBe('factur-x.xml');
    expect(fx('ConformanceLevel')).toBe('EN 16931');
    expect(meta.getElementsByTagNameNS('http://www.aiim.org/pdfa/ns/id/', 'part')[0]?.textContent).toBe('3');

    // Still the invoice a person reads, and the same bytes for the same input.
    expect((await loadPdf(bytes)).getTitle()).toBe('Invoice INV-2026-0042');
    expect((await pageTexts(bytes))[0]).toContain('Balance due');
    expect(await renderFacturXPdf(input())).toEqual(bytes);
  });

  it('is PDF/A-3b as far as its structure shows: fonts embedded with their widths, sRGB output intent, XMP as Info says, file ID (decision 052)', async () => {
    const bytes = await renderFacturXPdf(input());
    expect(await pdfaProblems(bytes)).toEqual([]);
    // The checker sees what the plain invoice PDF lacks (standard fonts, no output intent, no XMP, no ID).
    const plain = await pdfaProblems(await renderInvoicePdf(input().invoice));
    expect(plain).toEqual(
      expect.arrayContaining([
        '6.1.3 trailer /ID',
        '6.6.2.1 no XMP metadata stream',
        '6.2.3 no GTS_PDFA1 output intent',
        '6.2.11.4.1 font /Helvetica is not embedded',
        'Factur-X no embedded file',
      ]),
    );
  });

  it('embeds only the characters drawn, so a long invoice stays small, and draws every character WinAnsi has', async () => {
    const long = await renderFacturXPdf(input({ invoice: sampleInvoice(200) }));
    expect(long.length).toBeLessThan(200_000);
    const everything = sampleInvoice(1, { notes: `Ünïcödé — “quotes” € ß ø ñ … ‰ Œ œ Ÿ ž © ® ° ± µ ¶ § ¼ ½ ¾ and 中文 (not WinAnsi)` });
    const bytes = await renderFacturXPdf(input({ invoice: everything }));
    expect(await pdfaProblems(bytes)).toEqual([]);
    expect((await pageTexts(bytes)).join('\n')).toContain('Ünïcödé — “quotes” € ß ø ñ … ‰ Œ œ Ÿ ž');
  });
});
