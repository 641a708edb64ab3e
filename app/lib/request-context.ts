// Values the Worker hands to React Router for one request.
import { createContext } from 'react-router';

/** The CSP nonce of this response: every inline script carries it. */
export const nonceContext = createContext<string>('');
