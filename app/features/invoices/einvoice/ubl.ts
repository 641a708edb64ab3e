// The invoice as a UBL 2.1 Invoice in the Peppol BIS Billing 3.0 profile.
// Elements follow the UBL schema's order; the BT numbers are EN 16931's.
import type { Address, EInvoice, Party } from './model.ts';
import { el, serialize, type XmlNode } from './xml.ts';

export const UBL_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const UBL_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const UBL_NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

const vatScheme = () => el('cac:TaxScheme', null, el('cbc:ID', null, 'VAT'));

function postalAddress(address: Address): XmlNode {
  return el(
    'cac:PostalAddress',
    null,
    el('cbc:StreetName', null, address.street),
    el('cbc:AdditionalStreetName', null, address.additionalStreet),
    el('cbc:CityName', null, address.city),
    el('cbc:PostalZone', null, address.postalCode),
    el('cbc:CountrySubentity', null, address.region),
    el('cac:Country', null, el('cbc:IdentificationCode', null, address.country)), // BT-40 / BT-55
  );
}

function party(wrapper: string, p: Party): XmlNode {
  return el(
    wrapper,
    null,
    el(
      'cac:Party',
      null,
      // BT-34 / BT-49: Peppol's electronic address; an email address (EAS code EM) is what we have.
      p.email ? el('cbc:EndpointID', { schemeID: 'EM' }, p.email) : null,
      el('cac:PartyName', null, el('cbc:Name', null, p.name)),
      postalAddress(p.address),
      p.vatId ? el('cac:PartyTaxScheme', null, el('cbc:CompanyID', null, p.vatId), vatScheme()) : null, // BT-31 / BT-48
      p.taxRegistration
        ? el('cac:PartyTaxScheme', null, el('cbc:CompanyID', null, p.taxRegistration), el('cac:TaxScheme', null, el('cbc:ID', null, 'TAX')))
        : null, // BT-32
      el('cac:PartyLegalEntity', null, el('cbc:RegistrationName', null, p.name), el('cbc:CompanyID', null, p.registration)), // BT-27 / BT-44, BT-30
      p.email ? el('cac:Contact', null, el('cbc:ElectronicMail', null, p.email)) : null,
    ),
  );
}

function taxCategory(wrapper: string, invoice: EInvoice, withReason: boolean): XmlNode {
  return el(
    wrapper,
    null,
    el('cbc:ID', null, invoice.vat.category),
    el('cbc:Percent', null, invoice.vat.rate),
    withReason ? el('cbc:TaxExemptionReason', null, invoice.vat.exemptionReason) : null,
    vatScheme(),
  );
}

export function toUbl(invoice: EInvoice): string {
  const money = (name: string, value: string) => el(name, { currencyID: invoice.currency }, value);
  const { totals } = invoice;
  return serialize(
    el(
      'Invoice',
      { xmlns: UBL_NS.invoice, 'xmlns:cac': UBL_NS.cac, 'xmlns:cbc': UBL_NS.cbc },
      el('cbc:CustomizationID', null, UBL_CUSTOMIZATION_ID), // BT-24
      el('cbc:ProfileID', null, UBL_PROFILE_ID), // BT-23
      el('cbc:ID', null, invoice.number), // BT-1
      el('cbc:IssueDate', null, invoice.issueDate), // BT-2
      el('cbc:DueDate', null, invoice.dueDate), // BT-9
      el('cbc:InvoiceTypeCode', null, '380'), // BT-3: commercial invoice
      el('cbc:Note', null, invoice.note), // BT-22
      el('cbc:DocumentCurrencyCode', null, invoice.currency), // BT-5
      el('cbc:BuyerReference', null, invoice.buyerReference), // BT-10
      party('cac:AccountingSupplierParty', invoice.seller), // BG-4
      party('cac:AccountingCustomerParty', invoice.buyer), // BG-7
      invoice.paymentMeans &&
        el(
          'cac:PaymentMeans', // BG-16
          null,
          el('cbc:PaymentMeansCode', null, invoice.paymentMeans.code), // BT-81
          el('cbc:PaymentID', null, invoice.paymentMeans.remittance), // BT-83
          el(
            'cac:PayeeFinancialAccount',
            null,
            el('cbc:ID', null, invoice.paymentMeans.iban), // BT-84
            invoice.paymentMeans.bic && el('cac:FinancialInstitutionBranch', null, el('cbc:ID', null, invoice.paymentMeans.bic)), // BT-86
          ),
        ),
      invoice.paymentTerms && el('cac:PaymentTerms', null, el('cbc:Note', null, invoice.paymentTerms)), // BT-20
      invoice.allowance &&
        el(
          'cac:AllowanceCharge', // BG-20
          null,
          el('cbc:ChargeIndicator', null, 'false'),
          el('cbc:AllowanceChargeReason', null, invoice.allowance.reason), // BT-97
          el('cbc:MultiplierFactorNumeric', null, invoice.allowance.percent), // BT-94
          money('cbc:Amount', invoice.allowance.amount), // BT-92
          invoice.allowance.percent ? money('cbc:BaseAmount', totals.lineNet) : null, // BT-93
          taxCategory('cac:TaxCategory', invoice, false), // BT-95, BT-96
        ),
      el(
        'cac:TaxTotal',
        null,
        money('cbc:TaxAmount', totals.tax), // BT-110
        el(
          'cac:TaxSubtotal', // BG-23
          null,
          money('cbc:TaxableAmount', invoice.vat.taxableAmount), // BT-116
          money('cbc:TaxAmount', invoice.vat.taxAmount), // BT-117
          taxCategory('cac:TaxCategory', invoice, true), // BT-118, BT-119, BT-120
        ),
      ),
      el(
        'cac:LegalMonetaryTotal', // BG-22
        null,
        money('cbc:LineExtensionAmount', totals.lineNet), // BT-106
        money('cbc:TaxExclusiveAmount', totals.taxExclusive), // BT-109
        money('cbc:TaxInclusiveAmount', totals.taxInclusive), // BT-112
        invoice.allowance ? money('cbc:AllowanceTotalAmount', totals.allowances) : null, // BT-107
        totals.paid ? money('cbc:PrepaidAmount', totals.paid) : null, // BT-113
        money('cbc:PayableAmount', totals.payable), // BT-115
      ),
      invoice.lines.map((line) =>
        el(
          'cac:InvoiceLine', // BG-25
          null,
          el('cbc:ID', null, line.id), // BT-126
          el('cbc:InvoicedQuantity', { unitCode: line.unitCode }, line.quantity), // BT-129, BT-130
          money('cbc:LineExtensionAmount', line.netAmount), // BT-131
          el('cac:Item', null, el('cbc:Name', null, line.name), taxCategory('cac:ClassifiedTaxCategory', invoice, false)), // BT-153, BT-151, BT-152
          el('cac:Price', null, money('cbc:PriceAmount', line.netPrice)), // BT-146
        ),
      ),
    ),
  );
}
