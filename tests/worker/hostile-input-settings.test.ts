// Hostile input on every settings screen and each of its intents. See
// support/hostile.ts for the cases, hostile-actions.ts for the table.
import { SETTINGS_ACTIONS } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('settings', SETTINGS_ACTIONS);
