// Hostile input on the business screens, second part: invoices, shipments,
// purchase orders, documents and bills, with their record pages (the first
// part: hostile-input-business; the third: hostile-input-module-screens).
import { BUSINESS_ACTIONS, BUSINESS_PARTS } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('business screens: invoices, shipments, purchase orders, documents, bills', BUSINESS_PARTS[1], BUSINESS_ACTIONS);
