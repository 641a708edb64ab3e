// Reading e-invoices back, as a receiver's software would: the XML with a
// strict, namespace-aware parser (@xmldom/xmldom throws on anything not
// well-formed or an undeclared prefix), the Factur-X attachment from the
// PDF's structure with pdf-lib. Used by the unit and the Worker layers.
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFString, type PDFHexString, decodePDFRawStream } from 'pdf-lib';
import type { SellerSnapshot } from '../../app/features/invoices/einvoice/model.ts';

export const sampleSeller = (overrides: Partial<SellerSnapshot> = {}): SellerSnapshot => ({
  name: 'Northwind Trading GmbH',
  address_line1: 'Hafenstraße 12',
  address_line2: 'Gebäude B',
  postal_code: '20457',
  city: 'Hamburg',
  region: null,
  country: 'DE',
  tax_id: 'DE123456789',
  company_registration: 'HRB 12345',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  bank_details: null,
  payment_terms: 'Payable within 14 days, no deduction.',
  logo_path: null,
  accent_color: null,
  ...overrides,
});

/** Parses strictly: a document that is not well-formed XML, or uses an undeclared prefix, throws. */
export function parseXml(xml: string): Document {
  return new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
}

/**
 * The elements at `path` ('cac:Party/cbc:Name'), child by child from
 * `from`, each step matched by namespace URI (from `ns`) and local name; so
 * a wrong namespace or a wrong nesting finds nothing.
 */
export function all(from: Document | Element, path: string, ns: Record<string, string>): Element[] {
  let nodes: (Document | Element)[] = [from];
  for (const step of path.split('/')) {
    const [prefix, local] = step.split(':');
    const uri = ns[prefix];
    if (!uri) throw new Error(`No namespace for ${prefix}`);
    nodes = nodes.flatMap((node) =>
      Array.from(node.childNodes as unknown as ArrayLike<Element>).filter(
        (child) => child.nodeType === 1 && child.namespaceURI === uri && child.localName === local,
      ),
    );
  }
  return nodes as Element[];
}

/** The one element's text at `path`; fails unless exactly one is there. */
export function text(from: Document | Element, path: string, ns: Record<string, string>): string {
  const found = all(from, path, ns);
  if (found.length !== 1) throw new Error(`${path}: ${found.length} elements`);
  return found[0].textContent ?? '';
}

export interface PdfAttachment {
  name: string;
  relationship: string | null;
  subtype: string | null;
  xml: string;
  /** The file specification is listed in the catalog's /AF. */
  inCatalogAF: boolean;
}

/** The files embedded in a PDF (its /Names /EmbeddedFiles), read with pdf-lib. */
export async function embeddedFiles(bytes: Uint8Array): Promise<{ files: PdfAttachment[]; xmp: string | null }> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const catalog = doc.catalog;
  const af = catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  const afSpecs = new Set((af?.asArray() ?? []).map((ref) => doc.context.lookup(ref)));
  const names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)?.lookupMaybe(PDFName.of('Names'), PDFArray);
  const files: PdfAttachment[] = [];
  for (let i = 0; names && i + 1 < names.size(); i += 2) {
    const name = names.lookup(i) as PDFString | PDFHexString;
    const spec = names.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) throw new Error('The embedded file is not a stream');
    files.push({
      name: name.decodeText(),
      relationship: spec.lookupMaybe(PDFName.of('AFRelationship'), PDFName)?.decodeText() ?? null,
      subtype: stream.dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText() ?? null,
      xml: new TextDecoder().decode(decodePDFRawStream(stream).decode()),
      inCatalogAF: afSpecs.has(spec),
    });
  }
  const metadata = catalog.lookup(PDFName.of('Metadata'));
  return { files, xmp: metadata instanceof PDFRawStream ? new TextDecoder().decode(decodePDFRawStream(metadata).decode()) : null };
}
