// Values the Worker hands to React Router for one request.
import { createContext } from 'react-router';

/** The CSP nonce of this response: every inline script carries it. */
export const nonceContext = createContext<string>('');

/** The Worker's execution context: actions hand it work that outlives the response (the jobs runner's kick). */
export const executionContext = createContext<ExecutionContext | null>(null);
