// The Leads list's bulk action, shared by its button (leads.tsx) and its handler (bulk.server.ts).
export const BULK_INTENT = 'mark-lost';
