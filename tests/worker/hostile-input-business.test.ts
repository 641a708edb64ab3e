// Hostile input on the business screens, first half: quotes, leads, clients
// and messages, with their record pages (the rest: hostile-input-modules; why
// two files: splitBefore in hostile-actions.ts). See support/hostile.ts for
// the cases, hostile-actions.ts for the table.
import { BUSINESS_ACTIONS, BUSINESS_PARTS } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('business screens: quotes, leads, clients, messages', BUSINESS_PARTS[0], BUSINESS_ACTIONS);
