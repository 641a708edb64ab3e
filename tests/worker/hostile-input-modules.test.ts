// Hostile input on the business screens, second half: invoices, shipments,
// documents and the module screens, with their record pages (the first half:
// hostile-input-business).
import { BUSINESS_ACTIONS, BUSINESS_HALVES } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('business screens: invoices, shipments, documents, modules', BUSINESS_HALVES[1], BUSINESS_ACTIONS);
