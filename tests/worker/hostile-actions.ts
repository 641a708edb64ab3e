// Every action of the product, as the hostile-input tests know it: where its
// form posts, the fields of a valid submission and their kinds. A route module
// that answers a POST and is missing here fails hostile-input-public.test.ts.
//
// Placeholders filled per case: {n} the case number (so whatever a case sent
// can be told apart), {template} {integration} {member} {invitation} a row of
// the acting tenant (or of the other tenant, for the other-tenant cases),
// {token} an open invitation's token, {module} a catalogue module.
// Every text a valid form carries holds 'hostile-probe', so a row that took
// any of it is found wherever it landed.
import type { Field, HostileAction } from './support/hostile';

const text = (value: string, required = false): Field => ({ kind: 'text', value, required });
const email = (value: string, required = true): Field => ({ kind: 'email', value, required });
const choice = (value: string, required = false): Field => ({ kind: 'choice', value, required });
const date = (value: string, required = true): Field => ({ kind: 'date', value, required });
const money = (value: string): Field => ({ kind: 'money', value, required: true });
const number = (value: string, required = false): Field => ({ kind: 'number', value, required });
const id = (row: NonNullable<Field['row']>, required = true): Field => ({ kind: 'uuid', value: `{${row}}`, required, row });
const flag = (value: 'true' | 'false'): Field => ({ kind: 'choice', value, required: true });
const json = (value: string, required: boolean): Field => ({ kind: 'json', value, required });
const password = (value: string): Field => ({ kind: 'password', value, required: true });

export const PUBLIC_ACTIONS: HostileAction[] = [
  {
    name: 'auth: sign in',
    route: 'routes/auth.tsx',
    path: '/auth',
    intent: 'signin',
    // A real member's credentials: a malformed request that still signed in would show as a new session.
    fields: { email: text('{signin-email}', true), password: password('{signin-password}'), redirectTo: text('/quotes') },
    actor: 'anonymous',
    signedIn: false,
  },
  {
    name: 'auth: sign up',
    route: 'routes/auth.tsx',
    path: '/auth?tab=signup',
    intent: 'signup',
    fields: {
      first_name: text('hostile-probe {n}'),
      last_name: text('Prober'),
      email: email('signup-{n}@hostile-probe.test'),
      password: password('hostile-pass-{n}'),
    },
    actor: 'anonymous',
    signedIn: false,
  },
  {
    name: 'auth: sign out',
    route: 'routes/auth.tsx',
    path: '/auth',
    intent: 'signout',
    fields: {},
    // A signed-in member: a malformed sign-out that still signed them out would show in their sessions.
    actor: 'member',
    signedIn: true,
  },
  {
    name: 'invite: accept',
    route: 'routes/invite.tsx',
    path: '/invite/{token}',
    fields: {
      first_name: text('hostile-probe {n}'),
      last_name: text('Invitee'),
      password: password('invitee-pass-{n}'),
      confirm_password: password('invitee-pass-{n}'),
    },
    actor: 'anonymous',
    signedIn: false,
  },
  {
    name: 'password reset: ask for the mail',
    route: 'features/password-reset/forgot-password.tsx',
    path: '/auth/forgot-password',
    fields: { email: email('reset-{n}@hostile-probe.test') },
    actor: 'anonymous',
    signedIn: false,
  },
  {
    // The session is the one the reset link made; a member's stands in for it.
    name: 'password reset: choose the new password',
    route: 'features/password-reset/reset-password.tsx',
    path: '/auth/reset-password',
    fields: { password: password('hostile-pass-{n}'), confirm_password: password('hostile-pass-{n}') },
    actor: 'member',
    signedIn: true,
  },
  {
    name: 'profile: name',
    route: 'features/profile/profile.tsx',
    path: '/profile',
    intent: 'name',
    fields: { first_name: text('hostile-probe {n}'), last_name: text('Prober') },
    actor: 'member',
    signedIn: true,
  },
  {
    name: 'profile: password',
    route: 'features/profile/profile.tsx',
    path: '/profile',
    intent: 'password',
    fields: {
      current_password: password('not-the-password-{n}'),
      password: password('hostile-pass-{n}'),
      confirm_password: password('hostile-pass-{n}'),
    },
    actor: 'member',
    signedIn: true,
  },
  {
    name: 'profile: email',
    route: 'features/profile/profile.tsx',
    path: '/profile',
    intent: 'email',
    fields: { email: email('moved-{n}@hostile-probe.test') },
    actor: 'member',
    signedIn: true,
  },
  {
    name: 'layout: sidebar toggle',
    route: 'routes/app-layout.tsx',
    path: '/dashboard?sidebar=toggle',
    fields: {},
    actor: 'admin',
    signedIn: true,
    // It reads no field and writes only the visitor's own sidebar cookie (no row,
    // no session needed): a cross-origin post is the one thing to refuse.
    kinds: ['cross-origin'],
  },
];

export const BUSINESS_ACTIONS: HostileAction[] = [
  {
    name: 'quotes: create',
    route: 'features/quotes/quotes.tsx',
    path: '/quotes?new',
    fields: {
      contact_name: text('hostile-probe {n}', true),
      contact_email: email('quote-{n}@hostile-probe.test'),
      company: text('hostile-probe Ltd', true),
      description: text('hostile-probe consulting', true),
      unit_price: money('1250.50'),
      quantity: number('3'),
      currency: choice('EUR'),
      expires_in_days: { kind: 'choice', value: '14' },
      notes: text('hostile-probe notes'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'leads: create',
    route: 'features/leads/leads.tsx',
    path: '/leads?new',
    fields: {
      name: text('hostile-probe {n}', true),
      email: email('lead-{n}@hostile-probe.test'),
      company: text('hostile-probe Ltd', true),
      phone_whatsapp: text('+1 555 0199'),
      role: text('hostile-probe role'),
      source: choice('email'),
      interest: { kind: 'choices', value: 'cpq' },
      notes: text('hostile-probe notes'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'clients: create',
    route: 'features/clients/clients.tsx',
    path: '/clients?new',
    fields: {
      name: text('hostile-probe {n}', true),
      email: email('client-{n}@hostile-probe.test'),
      company: text('hostile-probe Ltd'),
      phone: text('+1 555 0177'),
      role: text('hostile-probe role'),
      notes: text('hostile-probe notes'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'messages: send',
    route: 'routes/messages.tsx',
    path: '/messages?new',
    fields: {
      recipient: text('message-{n}@hostile-probe.test', true),
      channel: choice('email'),
      subject: text('hostile-probe subject', true),
      message: text('hostile-probe message', true),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'invoices: create',
    route: 'routes/invoices.tsx',
    path: '/invoices?new',
    fields: {
      client_name: text('hostile-probe {n}', true),
      client_email: email('invoice-{n}@hostile-probe.test'),
      description: text('hostile-probe consulting', true),
      unit_price: money('1299.50'),
      quantity: number('2'),
      currency: choice('EUR'),
      due_date: date('2025-04-01'),
      notes: text('hostile-probe notes'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'shipments: create',
    route: 'routes/shipments.tsx',
    path: '/shipments?new',
    fields: {
      origin: text('Rotterdam, NL', true),
      destination: text('Oslo, NO', true),
      carrier: choice('dhl'),
      weight: number('120.5', true),
      dimensions: text('120 × 80 × 100 cm'),
      description: text('hostile-probe pallets', true),
      special_instructions: text('hostile-probe instructions'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'documents: upload',
    route: 'routes/documents.tsx',
    path: '/documents?new',
    fields: {
      file: { kind: 'file', value: '', required: true },
      title: text('hostile-probe {n}', true),
      type: choice('contract'),
      description: text('hostile-probe description'),
    },
    actor: 'admin',
    signedIn: true,
    multipart: true,
    // An upload may carry 10 MB beside its fields.
    oversizedBytes: 10 * 1024 * 1024 + 65 * 1024,
  },
  {
    name: 'rfp: respond',
    route: 'routes/rfp.tsx',
    path: '/rfp?new',
    fields: {
      title: text('hostile-probe {n}', true),
      company: text('Port of Oslo', true),
      contact_email: email('rfp-{n}@hostile-probe.test'),
      value: money('250000'),
      deadline: date('2025-05-01'),
      proposal: text('hostile-probe proposal', true),
      additional_notes: text('hostile-probe notes'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'compliance: new assessment',
    route: 'routes/compliance.tsx',
    path: '/compliance?new',
    fields: {
      title: text('hostile-probe {n}', true),
      category: choice('security'),
      risk_level: choice('critical'),
      responsible_team: text('IT Security', true),
      next_review_date: date('2025-06-01'),
      description: text('hostile-probe review', true),
      requirements: text('hostile-probe requirements'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'automations: create',
    route: 'routes/automations.tsx',
    path: '/automations?new',
    fields: {
      name: text('hostile-probe {n}', true),
      trigger: choice('client_registered'),
      action: choice('send_email'),
      frequency: choice('immediate'),
      description: text('hostile-probe welcome pack', true),
      conditions: text('hostile-probe conditions'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'analytics: export report',
    route: 'routes/analytics.tsx',
    path: '/analytics?export',
    // A custom range, so that the two dates are required.
    fields: {
      report_type: choice('sales'),
      format: choice('pdf'),
      date_range: choice('custom', true),
      start_date: date('2025-01-01'),
      end_date: date('2025-01-31'),
      include_charts: { kind: 'checkbox', value: 'on' },
      include_summary: { kind: 'checkbox', value: 'on' },
    },
    actor: 'admin',
    signedIn: true,
  },
];

export const SETTINGS_ACTIONS: HostileAction[] = [
  {
    name: 'settings website: save',
    route: 'routes/settings.website.tsx',
    path: '/settings/website',
    // Only the master account's admin may save: the one actor for whom a valid save succeeds.
    fields: {
      company_name: text('hostile-probe {n}', true),
      contact_email: email('website-{n}@hostile-probe.test'),
      description: text('hostile-probe description'),
      timezone: choice('Asia/Tokyo'),
      currency: choice('JPY'),
    },
    actor: 'master',
    signedIn: true,
  },
  {
    name: 'settings modules: toggle',
    route: 'routes/settings.modules.tsx',
    path: '/settings/modules',
    intent: 'toggle',
    fields: { module_id: { kind: 'uuid', value: '{module}', required: true }, status: choice('paused', true) },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings templates: create',
    route: 'features/templates/templates.tsx',
    path: '/settings/templates?new',
    intent: 'save',
    fields: {
      name: text('hostile-probe {n}', true),
      type: choice('email'),
      subject: text('hostile-probe subject'),
      content: text('hostile-probe content {{name}}', true),
      variables: json('{"name":"hostile-probe"}', false),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings templates: edit',
    route: 'features/templates/templates.tsx',
    path: '/settings/templates?edit={template}',
    intent: 'save',
    fields: {
      // Without its id, a save is a create (the create form's own request): not a malformed one.
      id: id('template', false),
      name: text('hostile-probe {n}', true),
      type: choice('quote'),
      content: text('hostile-probe content', true),
      variables: json('', false),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings templates: delete',
    route: 'features/templates/templates.tsx',
    path: '/settings/templates',
    intent: 'delete',
    fields: { id: id('template') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings integrations: create',
    route: 'routes/settings.integrations.tsx',
    path: '/settings/integrations?new',
    intent: 'save',
    fields: {
      name: text('hostile-probe {n}', true),
      type: choice('crm', true),
      config: json('{"api_key":"hostile-probe-key"}', true),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings integrations: edit',
    route: 'routes/settings.integrations.tsx',
    path: '/settings/integrations?edit={integration}',
    intent: 'save',
    fields: {
      // Without its id, a save is a create (the create form's own request): not a malformed one.
      id: id('integration', false),
      name: text('hostile-probe {n}', true),
      type: choice('crm', true),
      config: json('{"api_key":"hostile-probe-key"}', true),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings integrations: activate/deactivate',
    route: 'routes/settings.integrations.tsx',
    path: '/settings/integrations',
    intent: 'set-active',
    fields: { id: id('integration'), active: flag('false') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings integrations: delete',
    route: 'routes/settings.integrations.tsx',
    path: '/settings/integrations',
    intent: 'delete',
    fields: { id: id('integration') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings users: invite',
    route: 'routes/settings.users.tsx',
    path: '/settings/users?invite',
    intent: 'invite',
    fields: {
      email: email('invitee-{n}@hostile-probe.test'),
      role: choice('auditor'),
      first_name: text('hostile-probe {n}'),
      last_name: text('Invitee'),
    },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings users: edit',
    route: 'routes/settings.users.tsx',
    path: '/settings/users?edit={member}',
    intent: 'update',
    fields: { id: id('member'), role: choice('auditor', true), first_name: text('hostile-probe {n}'), last_name: text('Member') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings users: activate/deactivate',
    route: 'routes/settings.users.tsx',
    path: '/settings/users',
    intent: 'set-active',
    fields: { id: id('member'), active: flag('false') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings users: revoke invitation',
    route: 'routes/settings.users.tsx',
    path: '/settings/users?revoke={invitation}',
    intent: 'revoke',
    fields: { id: id('invitation') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings users: resend invitation',
    route: 'routes/settings.users.tsx',
    path: '/settings/users',
    intent: 'resend',
    fields: { id: id('invitation') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings users: copy invitation link',
    route: 'routes/settings.users.tsx',
    path: '/settings/users',
    intent: 'copy-link',
    fields: { id: id('invitation') },
    actor: 'admin',
    signedIn: true,
  },
  {
    name: 'settings account: save',
    route: 'routes/settings.account.tsx',
    path: '/settings/account',
    fields: {
      name: text('hostile-probe {n}', true),
      billing_email: { kind: 'email', value: 'billing-{n}@hostile-probe.test' },
      default_currency: choice('EUR'),
      timezone: choice('Europe/Paris'),
      country: text('hostile-probe land'),
    },
    actor: 'admin',
    signedIn: true,
  },
];

export const ALL_ACTIONS: HostileAction[] = [...PUBLIC_ACTIONS, ...BUSINESS_ACTIONS, ...SETTINGS_ACTIONS];
