// The CSP nonce of the response being rendered, for the document's own inline
// scripts (React Router's <Scripts /> get theirs from <ServerRouter nonce>).
// Provided by entry.server.tsx; absent in the browser, where nothing renders
// an inline script.
import { createContext } from 'react';

export const DocumentNonce = createContext('');
