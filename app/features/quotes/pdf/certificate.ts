// The signature certificate: the last page of a signed quote, recording who
// accepted it, when, from where, and the hash of what they accepted.
import { instant } from '../../../lib/pdf/format.ts';
import { boundedSignaturePng } from './signature-png.ts';
import { CONTENT_WIDTH, type Flow, LEFT, RIGHT } from '../../../lib/pdf/layout.ts';
import { drawInBox, drawLeft, MUTED, RULE, wrap } from '../../../lib/pdf/text.ts';
import type { PdfSignature } from '../../../lib/pdf/types.ts';

const LABEL_WIDTH = 140;
const VALUE_LEFT = LEFT + LABEL_WIDTH;
const VALUE_WIDTH = RIGHT - VALUE_LEFT;
const LINE = 13;

export interface CertificateSubject {
  /** 'Quote Q-2026-0007'. */
  document: string;
  accountName: string;
}

export async function drawSignatureCertificate(flow: Flow, subject: CertificateSubject, signature: PdfSignature): Promise<void> {
  flow.newPage();
  const { fonts } = flow;
  const body = { font: fonts.regular, size: 10 };

  drawLeft(flow.page, 'Signature certificate', LEFT, flow.y - 18, { font: fonts.bold, size: 20 });
  flow.down(36);
  for (const line of wrap(
    `${subject.document} from ${subject.accountName} was accepted and signed electronically. ` +
      'The details below were recorded at the moment of signing.',
    CONTENT_WIDTH,
    { ...body, color: MUTED },
  )) {
    drawLeft(flow.page, line, LEFT, flow.y - 10, { ...body, color: MUTED });
    flow.down(LINE);
  }
  flow.down(14);

  const fields: Array<[string, string, 'text' | 'hash']> = [
    ['Document', subject.document, 'text'],
    ['Signer name', signature.signerName, 'text'],
    ['Signer email', signature.signerEmail, 'text'],
    ['Signed at', instant(signature.signedAt), 'text'],
    ['IP address', signature.ip || 'Not recorded', 'text'],
    ['User agent', signature.userAgent || 'Not recorded', 'text'],
    ['Content hash (SHA-256)', signature.contentHash, 'hash'],
  ];
  for (const [label, value, kind] of fields) {
    const style = kind === 'hash' ? { font: fonts.mono, size: 9 } : body;
    const lines = wrap(value, VALUE_WIDTH, style);
    flow.room(lines.length * LINE + 8);
    drawLeft(flow.page, label, LEFT, flow.y - 10, { font: fonts.bold, size: 9, color: MUTED });
    for (const line of lines) {
      drawLeft(flow.page, line, VALUE_LEFT, flow.y - 10, style);
      flow.down(LINE);
    }
    flow.down(6);
  }

  await drawSignatureBox(flow, signature);

  flow.down(20);
  const note =
    'The content hash is the SHA-256 of the quote’s canonical content (its seller, number, client, currency, ' +
    'line items, amounts, expiry and notes) as it was signed. Computing it again from the stored snapshot ' +
    'shows whether anything has changed since.';
  for (const line of wrap(note, CONTENT_WIDTH, { font: fonts.regular, size: 8.5 })) {
    flow.room(12);
    drawLeft(flow.page, line, LEFT, flow.y - 9, { font: fonts.regular, size: 8.5, color: MUTED });
    flow.down(12);
  }
}

const BOX_WIDTH = 260;
const BOX_HEIGHT = 90;

/** The typed name as a signature, and the drawn one beside it when there is one. */
async function drawSignatureBox(flow: Flow, signature: PdfSignature): Promise<void> {
  flow.down(10);
  flow.room(BOX_HEIGHT + 30);
  const { page, fonts } = flow;
  const top = flow.y;
  drawLeft(page, 'Signature', LEFT, top - 10, { font: fonts.bold, size: 9, color: MUTED });
  const boxTop = top - 18;
  page.drawRectangle({ x: VALUE_LEFT, y: boxTop - BOX_HEIGHT, width: BOX_WIDTH, height: BOX_HEIGHT, borderColor: RULE, borderWidth: 0.75 });

  const drawn = signature.drawnSignaturePng ? await embedSignature(flow, signature.drawnSignaturePng) : null;
  if (drawn) {
    const scale = Math.min((BOX_WIDTH - 20) / drawn.width, (BOX_HEIGHT - 34) / drawn.height, 1);
    const width = drawn.width * scale;
    const height = drawn.height * scale;
    page.drawImage(drawn, { x: VALUE_LEFT + (BOX_WIDTH - width) / 2, y: boxTop - 8 - height, width, height });
  }
  // The name the signer typed is their signature; a drawing is optional.
  drawInBox(page, signature.signerName, VALUE_LEFT + 10, boxTop - BOX_HEIGHT + 12, BOX_WIDTH - 20, { font: fonts.italic, size: 14 });
  if (signature.drawnSignaturePng && !drawn) {
    drawLeft(page, 'The drawn signature could not be read.', VALUE_LEFT, boxTop - BOX_HEIGHT - 12, { font: fonts.regular, size: 8.5, color: MUTED });
  }
  flow.y = boxTop - BOX_HEIGHT - 16;
}

async function embedSignature(flow: Flow, png: Uint8Array) {
  // Decoded only within the signature bounds (a stored PNG may predate them, or
  // come from a direct call of the API): a bomb is not inflated, it is unreadable.
  const bounded = boundedSignaturePng(png);
  if (!bounded) return null;
  try {
    return await flow.doc.embedPng(bounded);
  } catch {
    // Bytes that are not a PNG: the certificate still stands on the typed name.
    return null;
  }
}
