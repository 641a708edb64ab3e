// The invoice as UN/CEFACT CII D16B in the Factur-X / ZUGFeRD EN 16931
// profile: the XML a Factur-X PDF carries as factur-x.xml. Elements follow the
// Factur-X 1.07 EN16931 schema's order; the BT numbers are EN 16931's.
import type { EInvoice, Party } from './model.ts';
import { el, emptyEl, serialize, type XmlNode } from './xml.ts';

export const CII_GUIDELINE_ID = 'urn:cen.eu:en16931:2017';
export const CII_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

/** '2026-11-26' → udt:DateTimeString format 102 (YYYYMMDD). */
const date = (name: string, day: string) => el(name, null, el('udt:DateTimeString', { format: '102' }, day.replaceAll('-', '')));

function tradeParty(name: string, p: Party): XmlNode {
  return el(
    name,
    null,
    el('ram:Name', null, p.name), // BT-27 / BT-44
    el('ram:SpecifiedLegalOrganization', null, el('ram:ID', null, p.registration)), // BT-30
    el(
      'ram:PostalTradeAddress',
      null,
      el('ram:PostcodeCode', null, p.address.postalCode),
      el('ram:LineOne', null, p.address.street),
      el('ram:LineTwo', null, p.address.additionalStreet),
      el('ram:CityName', null, p.address.city),
      el('ram:CountryID', null, p.address.country), // BT-40 / BT-55
      el('ram:CountrySubDivisionName', null, p.address.region),
    ),
    p.email ? el('ram:URIUniversalCommunication', null, el('ram:URIID', { schemeID: 'EM' }, p.email)) : null, // BT-34 / BT-49
    p.taxRegistration ? el('ram:SpecifiedTaxRegistration', null, el('ram:ID', { schemeID: 'FC' }, p.taxRegistration)) : null, // BT-32
    p.vatId ? el('ram:SpecifiedTaxRegistration', null, el('ram:ID', { schemeID: 'VA' }, p.vatId)) : null, // BT-31 / BT-48
  );
}

export function toCii(invoice: EInvoice): string {
  const { totals, vat } = invoice;
  const money = (name: string, value: string, withCurrency = false) => el(name, withCurrency ? { currencyID: invoice.currency } : null, value);
  const categoryTax = (wrapper: string) =>
    el(wrapper, null, el('ram:TypeCode', null, 'VAT'), el('ram:CategoryCode', null, vat.category), el('ram:RateApplicablePercent', null, vat.rate));

  return serialize(
    el(
      'rsm:CrossIndustryInvoice',
      { 'xmlns:rsm': CII_NS.rsm, 'xmlns:ram': CII_NS.ram, 'xmlns:udt': CII_NS.udt, 'xmlns:qdt': CII_NS.qdt },
      el('rsm:ExchangedDocumentContext', null, el('ram:GuidelineSpecifiedDocumentContextParameter', null, el('ram:ID', null, CII_GUIDELINE_ID))), // BT-24
      el(
        'rsm:ExchangedDocument',
        null,
        el('ram:ID', null, invoice.number), // BT-1
        el('ram:TypeCode', null, '380'), // BT-3
        date('ram:IssueDateTime', invoice.issueDate), // BT-2
        invoice.note && el('ram:IncludedNote', null, el('ram:Content', null, invoice.note)), // BT-22
      ),
      el(
        'rsm:SupplyChainTradeTransaction',
        null,
        invoice.lines.map((line) =>
          el(
            'ram:IncludedSupplyChainTradeLineItem', // BG-25
            null,
            el('ram:AssociatedDocumentLineDocument', null, el('ram:LineID', null, line.id)), // BT-126
            el('ram:SpecifiedTradeProduct', null, el('ram:Name', null, line.name)), // BT-153
            el('ram:SpecifiedLineTradeAgreement', null, el('ram:NetPriceProductTradePrice', null, money('ram:ChargeAmount', line.netPrice))), // BT-146
            el('ram:SpecifiedLineTradeDelivery', null, el('ram:BilledQuantity', { unitCode: line.unitCode }, line.quantity)), // BT-129, BT-130
            el(
              'ram:SpecifiedLineTradeSettlement',
              null,
              categoryTax('ram:ApplicableTradeTax'), // BT-151, BT-152
              el('ram:SpecifiedTradeSettlementLineMonetarySummation', null, money('ram:LineTotalAmount', line.netAmount)), // BT-131
            ),
          ),
        ),
        el(
          'ram:ApplicableHeaderTradeAgreement',
          null,
          el('ram:BuyerReference', null, invoice.buyerReference), // BT-10
          tradeParty('ram:SellerTradeParty', invoice.seller), // BG-4
          tradeParty('ram:BuyerTradeParty', invoice.buyer), // BG-7
        ),
        // Required by the schema; we record no delivery details.
        emptyEl('ram:ApplicableHeaderTradeDelivery'),
        el(
          'ram:ApplicableHeaderTradeSettlement',
          null,
          el('ram:PaymentReference', null, invoice.paymentMeans?.remittance), // BT-83
          el('ram:InvoiceCurrencyCode', null, invoice.currency), // BT-5
          invoice.paymentMeans &&
            el(
              'ram:SpecifiedTradeSettlementPaymentMeans', // BG-16
              null,
              el('ram:TypeCode', null, invoice.paymentMeans.code), // BT-81
              el('ram:PayeePartyCreditorFinancialAccount', null, el('ram:IBANID', null, invoice.paymentMeans.iban)), // BT-84
              invoice.paymentMeans.bic && el('ram:PayeeSpecifiedCreditorFinancialInstitution', null, el('ram:BICID', null, invoice.paymentMeans.bic)), // BT-86
            ),
          el(
            'ram:ApplicableTradeTax', // BG-23
            null,
            money('ram:CalculatedAmount', vat.taxAmount), // BT-117
            el('ram:TypeCode', null, 'VAT'),
            el('ram:ExemptionReason', null, vat.exemptionReason), // BT-120
            money('ram:BasisAmount', vat.taxableAmount), // BT-116
            el('ram:CategoryCode', null, vat.category), // BT-118
            el('ram:RateApplicablePercent', null, vat.rate), // BT-119
          ),
          invoice.allowance &&
            el(
              'ram:SpecifiedTradeAllowanceCharge', // BG-20
              null,
              el('ram:ChargeIndicator', null, el('udt:Indicator', null, 'false')),
              el('ram:CalculationPercent', null, invoice.allowance.percent), // BT-94
              invoice.allowance.percent ? money('ram:BasisAmount', totals.lineNet) : null, // BT-93
              money('ram:ActualAmount', invoice.allowance.amount), // BT-92
              el('ram:Reason', null, invoice.allowance.reason), // BT-97
              categoryTax('ram:CategoryTradeTax'), // BT-95, BT-96
            ),
          el(
            'ram:SpecifiedTradePaymentTerms',
            null,
            el('ram:Description', null, invoice.paymentTerms), // BT-20
            invoice.dueDate && date('ram:DueDateDateTime', invoice.dueDate), // BT-9
          ),
          el(
            'ram:SpecifiedTradeSettlementHeaderMonetarySummation', // BG-22
            null,
            money('ram:LineTotalAmount', totals.lineNet), // BT-106
            invoice.allowance ? money('ram:AllowanceTotalAmount', totals.allowances) : null, // BT-107
            money('ram:TaxBasisTotalAmount', totals.taxExclusive), // BT-109
            money('ram:TaxTotalAmount', totals.tax, true), // BT-110
            money('ram:GrandTotalAmount', totals.taxInclusive), // BT-112
            totals.paid ? money('ram:TotalPrepaidAmount', totals.paid) : null, // BT-113
            money('ram:DuePayableAmount', totals.payable), // BT-115
          ),
        ),
      ),
    ),
  );
}
