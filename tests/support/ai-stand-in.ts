// A local stand-in of an OpenAI-compatible chat-completions API (decision 082),
// started by the global setup on loopback for the whole Worker run. Its first
// path segment says how it behaves, so one server plays every provider a test
// needs: /good answers the fields of the test's document, /wrong answers
// values the document does not bear out, /malformed answers text that is not
// JSON, /huge answers more than the 256 KB an answer may be, /hang never
// answers. A request without a bearer key or a json_schema response_format
// is refused (400). GET /requests counts the completions asked for, per
// behaviour, and names the last key sent, so a test can tell that a document
// was not sent, and that the integration's key was.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What /good answers: the fields of tests/worker/documents-ai.test.ts's Dutch invoice. */
const GOOD = {
  invoice_number: 'BH-2025-0042',
  order_number: null,
  supplier_name: 'Blue Harbor Supplies BV',
  customer_name: null,
  tax_id: 'NL859123456B01',
  email: null,
  iban: 'NL91ABNA0417164300',
  issue_date: '2025-03-03',
  due_date: '2025-04-02',
  currency: 'EUR',
  subtotal: '100.00',
  tax_amount: '21.00',
  total: '121.00',
  line_items: [
    { description: 'Koffiebonen', quantity: '2', unit_price: '40.00', amount: '80.00' },
    { description: 'Filters', quantity: null, unit_price: null, amount: '20.00' },
  ],
};

/** What /wrong answers: a number and a supplier the document does not print, amounts that do not add up, a date not in it. */
const WRONG = { ...GOOD, invoice_number: 'INV-999', supplier_name: 'Acme Invented Ltd', subtotal: '100.00', tax_amount: '12.00', total: '121.00', issue_date: '2025-05-03', line_items: [] };

const completion = (content: string) => JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

export async function startAiStandIn(): Promise<{ port: number; server: Server; hanging: ServerResponse[] }> {
  const counts: Record<string, number | string> = {};
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const behaviour = (req.url ?? '').split('/')[1] ?? '';
    if (req.method === 'GET' && behaviour === 'requests') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(counts));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: { model?: string; response_format?: { type?: string }; messages?: { content?: string }[] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // refused below
      }
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? '') || body.response_format?.type !== 'json_schema' || !body.model || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":{"message":"bad request"}}');
        return;
      }
      counts[behaviour] = Number(counts[behaviour] ?? 0) + 1;
      counts.last_key = (req.headers.authorization ?? '').slice('Bearer '.length);
      const json = { 'Content-Type': 'application/json' };
      if (behaviour === 'good') res.writeHead(200, json).end(completion(JSON.stringify(GOOD)));
      else if (behaviour === 'wrong') res.writeHead(200, json).end(completion(JSON.stringify(WRONG)));
      else if (behaviour === 'malformed') res.writeHead(200, json).end(completion('Here are the fields: {invoice_number: BH-2025-0042'));
      else if (behaviour === 'huge') res.writeHead(200, json).end(completion(JSON.stringify({ ...GOOD, customer_name: 'x'.repeat(300_000) })));
      else if (behaviour === 'hang') {
        // Headers and never a body: the deadline must hold while the body is read, too.
        res.writeHead(200, json);
        res.write('{"choices":[');
        hanging.push(res);
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server, hanging };
}
