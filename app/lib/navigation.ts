// The sidebar's groups (docs/product-guide.md), by role (docs/decisions/012-role-matrix.md):
// staff see the business screens, admins and auditors also Settings; clients
// and suppliers, who are outside the company, only the pages of what is
// addressed to them. The database refuses the rest anyway.
import type { IconComponent } from '~/components/icons';
import {
  Blocks,
  Building2,
  ChartBar,
  FileCode,
  FileText,
  FolderOpen,
  LayoutDashboard,
  MessageSquare,
  Plug,
  Radar,
  Receipt,
  ShieldCheck,
  Truck,
  ClipboardList,
  UserCog,
  UserPlus,
  Users,
  Wallet,
  Workflow,
} from '~/components/icons';
import { canReadSettings, isExternal } from '~/lib/roles';

export interface NavItem {
  to: string;
  label: string;
  icon: IconComponent;
  /** Highlighted on its own path only (a section's landing page, whose sub-pages have items of their own). */
  exact?: boolean;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
  /** Shown to those who read settings (admins, auditors). */
  settings?: boolean;
}

export const NAV_GROUPS: NavGroup[] = [
  {
    label: 'Main',
    items: [
      { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
      { to: '/leads', label: 'Leads', icon: UserPlus },
      { to: '/quotes', label: 'Quotes', icon: FileText },
      { to: '/messages', label: 'Messages', icon: MessageSquare },
      { to: '/invoices', label: 'Invoices', icon: Receipt },
      { to: '/bills', label: 'Bills', icon: Wallet },
      { to: '/clients', label: 'Clients', icon: Users },
    ],
  },
  {
    label: 'Modules',
    items: [
      { to: '/shipments', label: 'Shipments', icon: Truck },
      { to: '/purchase-orders', label: 'Purchase Orders', icon: ClipboardList },
      { to: '/documents', label: 'Documents', icon: FolderOpen },
      { to: '/rfp', label: 'RFP Radar', icon: Radar },
      { to: '/compliance', label: 'Compliance', icon: ShieldCheck },
      { to: '/automations', label: 'Automations', icon: Workflow },
      { to: '/analytics', label: 'Analytics', icon: ChartBar },
    ],
  },
  {
    label: 'Settings',
    settings: true,
    items: [
      { to: '/settings/modules', label: 'Modules', icon: Blocks },
      { to: '/settings/templates', label: 'Templates', icon: FileCode },
      { to: '/settings/integrations', label: 'Integrations', icon: Plug },
      { to: '/settings/users', label: 'Users', icon: UserCog },
      { to: '/settings/account', label: 'Account', icon: Building2 },
    ],
  },
];

/** Where a client or supplier lands: the client portal (decision 050), the only pages of their shell. */
export const EXTERNAL_HOME = '/portal';

const EXTERNAL_NAV: NavGroup[] = [
  {
    label: 'Your portal',
    items: [
      { to: EXTERNAL_HOME, label: 'Quotes', icon: FileText, exact: true },
      { to: `${EXTERNAL_HOME}/invoices`, label: 'Invoices', icon: Receipt },
      { to: `${EXTERNAL_HOME}/documents`, label: 'Signed documents', icon: FolderOpen },
    ],
  },
];

/** Where the brand link leads. */
export function homeFor(role: string | undefined): string {
  return isExternal(role) ? EXTERNAL_HOME : '/dashboard';
}

/** A supplier's portal also lists the purchase orders addressed to them (decision 077). */
const SUPPLIER_NAV: NavGroup[] = [
  { ...EXTERNAL_NAV[0], items: [...EXTERNAL_NAV[0].items, { to: `${EXTERNAL_HOME}/orders`, label: 'Purchase orders', icon: ClipboardList }] },
];

export function navGroupsFor(role: string | undefined): NavGroup[] {
  if (role === 'supplier') return SUPPLIER_NAV;
  if (isExternal(role)) return EXTERNAL_NAV;
  return NAV_GROUPS.filter((group) => !group.settings || canReadSettings(role));
}

/** As docs/product-guide.md says: an item is highlighted when the current path equals or starts with its path. */
export function isActivePath(currentPath: string, itemPath: string): boolean {
  return currentPath === itemPath || currentPath.startsWith(`${itemPath}/`);
}

export const SETTINGS_MENU: { to: string; label: string }[] = [
  { to: '/settings/website', label: 'Website' },
  { to: '/settings/modules', label: 'Modules' },
  { to: '/settings/templates', label: 'Templates' },
  { to: '/settings/integrations', label: 'Integrations' },
  { to: '/settings/users', label: 'Users' },
  { to: '/settings/audit-logs', label: 'Audit Logs' },
  { to: '/settings/account', label: 'Account' },
  { to: '/settings/helpdesk', label: 'Helpdesk' },
];
