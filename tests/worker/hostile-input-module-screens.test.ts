// Hostile input on the business screens, third part: rfp, compliance,
// automations and analytics, with their record pages (the first two parts:
// hostile-input-business and hostile-input-modules).
import { BUSINESS_ACTIONS, BUSINESS_PARTS } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('business screens: rfp, compliance, automations, analytics', BUSINESS_PARTS[2], BUSINESS_ACTIONS);
