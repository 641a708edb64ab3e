// Many lines of plain text on the pages of a Flow, written straight into one
// compressed content stream per page. pdf-lib's drawText keeps several
// operator objects per call until the document is saved: a report of 10,000
// rows held about 180 MB in workerd (bench/analytics/export.ts), over a
// Worker's 128 MB. Here each line is a few bytes of PDF operators, and a
// page's lines are compressed as soon as the flow leaves the page.
import type { PDFFont, PDFPage } from 'pdf-lib';
import type { Flow } from '~/lib/pdf/layout';
import { INK, type TextStyle } from '~/lib/pdf/text';
import { safeLine } from '~/lib/pdf/winansi';

const number = (value: number) => String(Math.round(value * 100) / 100);

export class PlainTextLayer {
  private page: PDFPage | null = null;
  private lines: string[] = [];
  private fontKeys = new Map<PDFFont, string>();
  private readonly flow: Flow;

  constructor(flow: Flow) {
    this.flow = flow;
  }

  /** One line of already fitted text (see truncated) at x, y on the flow's current page, in the style's font, size and colour. */
  draw(text: string, x: number, y: number, style: TextStyle): void {
    const line = safeLine(text);
    if (line === '') return;
    if (this.page !== this.flow.page) {
      this.finish();
      this.page = this.flow.page;
    }
    const color = (style.color ?? INK) as { red: number; green: number; blue: number };
    this.lines.push(
      `BT ${this.fontKey(style.font)} ${number(style.size)} Tf ${number(color.red)} ${number(color.green)} ${number(color.blue)} rg ` +
        `1 0 0 1 ${number(x)} ${number(y)} Tm ${style.font.encodeText(line).toString()} Tj ET`,
    );
  }

  /** Writes the current page's lines; call once the drawing is done (the flow's later pages are written as it leaves each). */
  finish(): void {
    if (this.page && this.lines.length > 0) {
      const { context } = this.flow.doc;
      const stream = context.flateStream(`q\n${this.lines.join('\n')}\nQ`);
      this.page.node.addContentStream(context.register(stream));
    }
    this.lines = [];
    this.fontKeys.clear();
    this.page = null;
  }

  private fontKey(font: PDFFont): string {
    let key = this.fontKeys.get(font);
    if (!key) {
      key = this.flow.page.node.newFontDictionary(font.name, font.ref).asString();
      this.fontKeys.set(font, key);
    }
    return key;
  }
}
