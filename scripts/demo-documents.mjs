// The demo account's documents, uploaded on the first start of fresh demo
// data. supabase/seed.sql cannot hold them: a document is a row AND a file in
// Storage, and plain SQL can write only the row (on hosted Supabase a
// storage.objects row without its object downloads as a 404). So, once the
// app answers, the demo admin signs in and uploads a few sample files
// (supabase/demo-documents/) through the app's own upload dialog, a plain form
// post as a browser without JavaScript sends it: the file goes into Storage,
// the row names it, and the extraction job reads it (the upload kicks the
// jobs runner), as for any upload.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const FOLDER = fileURLToPath(new URL('../supabase/demo-documents/', import.meta.url));

/** What the demo admin uploads, oldest first (the list shows the newest first). */
export const DEMO_DOCUMENTS = [
  {
    file: 'contract-msa-techcorp.docx',
    type: 'contract',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    title: 'TechCorp master services agreement',
    description: 'Signed in January; renews every year.',
  },
  {
    file: 'invoice-uk-northwind.pdf',
    type: 'invoice',
    mime: 'application/pdf',
    title: 'Northwind Traders invoice NT-2025-0142',
    description: 'Supplier invoice for the March shipment.',
  },
  {
    file: 'receipt-us-hardware.pdf',
    type: 'financial',
    mime: 'application/pdf',
    title: 'Elm Street Hardware receipt',
    description: '',
  },
];

/** The cookies a response sets, as `name=value` pairs for the next request. @param {Response} response @param {Map<string, string>} jar */
function absorb(response, jar) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

/**
 * Signs in as the demo admin at `appUrl` and uploads the demo documents;
 * throws with the step that failed.
 * @param {string} appUrl @param {{ email: string, password: string }} signIn
 * @returns {Promise<number>} how many were uploaded
 */
export async function uploadDemoDocuments(appUrl, signIn) {
  /** @type {Map<string, string>} */
  const jar = new Map();
  /** @param {string} path @param {URLSearchParams | FormData} body */
  const post = async (path, body) => {
    const response = await fetch(`${appUrl}${path}`, {
      method: 'POST',
      body,
      // The app's same-origin check: a browser posting the app's own form sends its Origin.
      headers: { origin: appUrl, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      redirect: 'manual',
    });
    absorb(response, jar);
    await response.arrayBuffer();
    return response;
  };

  const signedIn = await post('/auth', new URLSearchParams({ intent: 'signin', email: signIn.email, password: signIn.password }));
  if (signedIn.status !== 302) throw new Error(`signing in as ${signIn.email} answered ${signedIn.status}`);
  let uploaded = 0;
  for (const document of DEMO_DOCUMENTS) {
    const form = new FormData();
    form.append('file', new File([await readFile(`${FOLDER}${document.file}`)], document.file, { type: document.mime }));
    form.append('title', document.title);
    form.append('type', document.type);
    form.append('description', document.description);
    const response = await post('/documents?new', form);
    // The dialog's success is a redirect to the list; anything else is a refusal or a failure.
    if (response.status !== 302) throw new Error(`uploading ${document.file} answered ${response.status}`);
    uploaded += 1;
  }
  return uploaded;
}
