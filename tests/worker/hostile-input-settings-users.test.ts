// Hostile input on the settings screens, second half: users and the account
// (the first half: hostile-input-settings).
import { SETTINGS_ACTIONS, SETTINGS_HALVES } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('settings: users, account', SETTINGS_HALVES[1], SETTINGS_ACTIONS);
