// Hostile input on the settings screens, first half: website, modules,
// templates and integrations (the rest: hostile-input-settings-users; why two
// files: splitBefore in hostile-actions.ts). See support/hostile.ts for the
// cases, hostile-actions.ts for the table.
import { SETTINGS_ACTIONS, SETTINGS_HALVES } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

describeHostile('settings: website, modules, templates, integrations', SETTINGS_HALVES[0], SETTINGS_ACTIONS);
