// The restriction texts of the settings screens that had no role check
// before the role matrix (docs/decisions/012-role-matrix.md): shown to
// non-admins under 'Access Restricted', and as the toast of a refused post.
export const RESTRICTED_TITLE = 'Access Restricted';

export const SETTINGS_RESTRICTED = {
  modules: 'Only administrators can manage modules and billing',
  templates: 'Only administrators can manage templates',
  integrations: 'Only administrators can manage integrations',
  account: 'Only administrators can manage account settings',
} as const;
