// A Factur-X / ZUGFeRD PDF: the invoice PDF with its CII XML embedded as
// factur-x.xml, the way Factur-X 1.07 asks: an embedded file whose file
// specification says /AFRelationship /Data, listed in the catalog's /AF,
// and XMP metadata naming the PDF/A-3 part and the Factur-X document
// (fx: DocumentType INVOICE, ConformanceLevel EN 16931), in a PDF/A-3b file
// (fonts embedded, sRGB output intent, file ID; decision 052). pdf-lib only,
// so it runs in workerd.
import { PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { SRGB_DESCRIPTION, srgbIccProfile } from './srgb-icc.ts';
import { escapeXml } from './xml.ts';

export const FACTURX_FILE_NAME = 'factur-x.xml';
export const FACTURX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
export const FACTURX_CONFORMANCE = 'EN 16931';

export interface FacturXInfo {
  /** The invoice's date: the attachment's dates, so the same input gives the same bytes. */
  date: Date;
}

/** What the document's Info dictionary says: PDF/A-3 (6.6.2.3) wants the XMP to say the same. */
interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
  creator: string;
  producer: string;
  created: Date;
  modified: Date;
}

const xmpDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function xmp(info: DocumentInfo): string {
  const field = (name: string, type: string, description: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>${type}</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;
  const alt = (value: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value)}</rdf:li></rdf:Alt>`;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>application/pdf</dc:format><dc:title>${alt(info.title)}</dc:title><dc:creator><rdf:Seq><rdf:li>${escapeXml(info.author)}</rdf:li></rdf:Seq></dc:creator><dc:description>${alt(info.subject)}</dc:description></rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>${escapeXml(info.creator)}</xmp:CreatorTool><xmp:CreateDate>${xmpDate(info.created)}</xmp:CreateDate><xmp:ModifyDate>${xmpDate(info.modified)}</xmp:ModifyDate></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>${escapeXml(info.producer)}</pdf:Producer></rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FACTURX_NS}"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>${FACTURX_FILE_NAME}</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>${FACTURX_CONFORMANCE}</fx:ConformanceLevel></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"><pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema><pdfaSchema:namespaceURI>${FACTURX_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq>${field('DocumentFileName', 'Text', 'The name of the embedded XML document')}${field('DocumentType', 'Text', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}${field('Version', 'Text', 'The actual version of the standard applying to the embedded XML document')}${field('ConformanceLevel', 'Text', 'The conformance level of the embedded XML document')}</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** The file identifier (trailer /ID, PDF/A-3 6.1.3): the first 16 bytes of SHA-256 over the XML, so the same invoice gives the same ID. */
async function fileId(xml: Uint8Array<ArrayBuffer>): Promise<PDFHexString> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', xml));
  return PDFHexString.of(Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join(''));
}

/**
 * The PDF, rendered with its fonts embedded (renderInvoicePdf's `fonts:
 * 'embedded'`), made a PDF/A-3b Factur-X file: `ciiXml` embedded as
 * factur-x.xml, the sRGB output intent, the XMP metadata (PDF/A id, Info's
 * values, the Factur-X schema and its extension description) and a file ID.
 */
export async function embedFacturX(pdf: Uint8Array, ciiXml: string, info: FacturXInfo): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { context, catalog } = doc;
  const bytes = new TextEncoder().encode(ciiXml);
  // Written by hand rather than with doc.attach(): pdf-lib would not list the
  // file in the catalog's /AF, which PDF/A-3 and Factur-X require.
  const file = context.register(
    context.flateStream(bytes, {
      Type: 'EmbeddedFile',
      Subtype: 'text/xml',
      Params: { Size: bytes.length, CreationDate: PDFString.fromDate(info.date), ModDate: PDFString.fromDate(info.date) },
    }),
  );
  const spec = context.register(
    context.obj({
      Type: 'Filespec',
      F: PDFString.of(FACTURX_FILE_NAME),
      UF: PDFHexString.fromText(FACTURX_FILE_NAME),
      Desc: PDFString.of('Factur-X invoice (EN 16931)'),
      AFRelationship: PDFName.of('Data'),
      EF: { F: file, UF: file },
    }),
  );
  // The invoice renderer writes no name tree of its own, so this one is the whole of it.
  catalog.set(PDFName.of('Names'), context.obj({ EmbeddedFiles: { Names: [PDFString.of(FACTURX_FILE_NAME), spec] } }));
  catalog.set(PDFName.of('AF'), context.obj([spec]));

  // PDF/A (6.2.3): device colours need an output intent; the pages draw in DeviceRGB.
  const profile = srgbIccProfile();
  const icc = context.register(context.flateStream(profile, { N: 3 }));
  catalog.set(
    PDFName.of('OutputIntents'),
    context.obj([
      {
        Type: 'OutputIntent',
        S: 'GTS_PDFA1',
        OutputConditionIdentifier: PDFString.of(SRGB_DESCRIPTION),
        Info: PDFString.of(SRGB_DESCRIPTION),
        DestOutputProfile: icc,
      },
    ]),
  );

  const metadata = context.stream(
    new TextEncoder().encode(
      xmp({
        title: doc.getTitle() ?? '',
        author: doc.getAuthor() ?? '',
        subject: doc.getSubject() ?? '',
        creator: doc.getCreator() ?? '',
        producer: doc.getProducer() ?? '',
        created: doc.getCreationDate() ?? info.date,
        modified: doc.getModificationDate() ?? info.date,
      }),
    ),
    // Not compressed: PDF/A (6.6.2.1) wants the metadata stream unfiltered.
    { Type: 'Metadata', Subtype: 'XML' },
  );
  catalog.set(PDFName.of('Metadata'), context.register(metadata));
  const id = await fileId(bytes);
  context.trailerInfo.ID = context.obj([id, id]);
  return (await doc.save({ useObjectStreams: false })) as Uint8Array<ArrayBuffer>;
}
