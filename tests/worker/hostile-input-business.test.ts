// Hostile input on the business screens: quotes, leads, clients and the eight
// module screens. See support/hostile.ts for the cases, hostile-actions.ts for the table.
import { BUSINESS_ACTIONS } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('business screens', BUSINESS_ACTIONS);
