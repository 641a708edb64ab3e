// The route table of docs/product-guide.md, written out: a newcomer finds a screen's module by its URL.
// The real modules live in app/features/<name>/ (route, form, schema, texts, queries; docs/adding-a-module.md);
// the public pages and the shell in app/routes/.
import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('pricing', 'routes/pricing.tsx'),
  route('auth', 'routes/auth.tsx'),
  // The link of the sign-up confirmation mail (a resource route, no page).
  route('auth/confirm', 'routes/auth.confirm.tsx'),
  // Forgot password: ask for the mail, then (signed in by its link) choose the new password.
  route('auth/forgot-password', 'features/password-reset/forgot-password.tsx'),
  route('auth/reset-password', 'features/password-reset/reset-password.tsx'),
  route('invite/:token', 'routes/invite.tsx'),
  // A shipment's public tracking page (issue 36): no sign-in, status and timeline only.
  route('track/:tracking_number', 'features/shipments/public/track.tsx'),
  route('track/:tracking_number/logo', 'features/shipments/public/track-logo.ts'),
  // A quote's public page: the link mailed to the client, no sign-in (decision 030).
  route('q/:token', 'features/quotes/public/public-quote.tsx'),
  route('q/:token/pdf', 'features/quotes/public/public-quote-pdf.ts'),
  // The seller's logo on a public page, from our own origin (decision 051).
  route('q/:token/logo', 'features/quotes/public/public-quote-logo.ts'),
  // A resolved conversation's CSAT rating: the link mailed to the customer, no sign-in (decision 075).
  route('csat/:token', 'features/helpdesk/csat/public-csat.tsx'),
  // A quote's PDF for those who may read the quote (a resource route, no page).
  route('quotes/:id/pdf', 'features/quotes/pdf/quote-pdf.ts'),
  // An invoice's public view, the link of its mail (no sign-in).
  route('i/:token', 'features/invoices/public-invoice.tsx'),
  route('i/:token/pdf', 'features/invoices/pdf/public-invoice-pdf.ts'),
  route('i/:token/logo', 'features/invoices/public-invoice-logo.ts'),
  // An invoice's PDF for those who may read the invoice (a resource route, no page).
  route('invoices/:id/pdf', 'features/invoices/pdf/invoice-pdf.ts'),
  // The invoice as an e-invoice (decision 049): UBL or CII XML, and the Factur-X PDF.
  route('invoices/:id/einvoice.xml', 'features/invoices/einvoice/einvoice-xml.ts'),
  route('invoices/:id/facturx.pdf', 'features/invoices/einvoice/facturx-pdf.ts'),
  // A purchase order's PDF for staff and the supplier it is addressed to (a resource route, no page).
  route('purchase-orders/:id/pdf', 'features/purchase-orders/pdf/po-pdf.ts'),

  layout('routes/app-layout.tsx', [
    // A screen's error is shown inside the shell, the sidebar kept.
    layout('routes/screen-error-boundary.tsx', [
      route('dashboard', 'features/dashboard/dashboard.tsx'),
      route('leads', 'features/leads/leads.tsx'),
      route('leads/:id', 'features/leads/lead-detail.tsx'),
      route('quotes', 'features/quotes/quotes.tsx'),
      route('quotes/:id', 'features/quotes/quote-detail.tsx'),
      route('quotes/:id/edit', 'features/quotes/quote-edit.tsx'),
      // The helpdesk (decision 060): the inbox and a conversation.
      route('messages', 'features/helpdesk/inbox.tsx'),
      route('messages/:id', 'features/helpdesk/conversation.tsx'),
      // The SLA report (decision 075).
      route('messages/report', 'features/helpdesk/sla/report.tsx'),
      // Compose and the canned replies library (decision 076).
      route('messages/new', 'features/helpdesk/compose/compose.tsx'),
      route('messages/replies', 'features/helpdesk/replies/canned-replies.tsx'),
      route('invoices', 'features/invoices/invoices.tsx'),
      route('invoices/:id', 'features/invoices/invoice-detail.tsx'),
      route('invoices/:id/edit', 'features/invoices/invoice-edit.tsx'),
      route('bills', 'features/bills/bills.tsx'),
      route('bills/:id', 'features/bills/bill-detail.tsx'),
      route('clients', 'features/clients/clients.tsx'),
      route('clients/:id', 'features/clients/client-detail.tsx'),
      route('shipments', 'features/shipments/shipments.tsx'),
      route('shipments/:id', 'features/shipments/shipment-detail.tsx'),
      route('purchase-orders', 'features/purchase-orders/purchase-orders.tsx'),
      route('purchase-orders/:id', 'features/purchase-orders/purchase-order-detail.tsx'),
      route('documents', 'features/documents/documents.tsx'),
      route('documents/:id', 'features/documents/document-detail.tsx'),
      route('rfp', 'features/rfp/rfp.tsx'),
      route('rfp/radar', 'features/rfp/rfp-radar.tsx'),
      route('rfp/radar/settings', 'features/rfp/rfp-radar-settings.tsx'),
      route('rfp/:id', 'features/rfp/rfp-detail.tsx'),
      route('compliance', 'features/compliance/compliance.tsx'),
      route('compliance/catalogues', 'features/compliance/catalogues.tsx'),
      route('compliance/:id', 'features/compliance/item-detail.tsx'),
      route('automations', 'features/automations/automations.tsx'),
      route('automations/:id', 'features/automations/automation-detail.tsx'),
      route('analytics', 'features/analytics/analytics.tsx'),
      route('profile', 'features/profile/profile.tsx'),
      // The client portal (decision 050): what was sent to a signed-in client.
      route('portal', 'features/portal/portal.tsx', [
        index('features/portal/portal.index.tsx'),
        route('invoices', 'features/portal/portal.invoices.tsx'),
        route('documents', 'features/portal/portal.documents.tsx'),
        route('quotes/:id/sign', 'features/portal/portal.quotes.sign.ts'),
        // The supplier's portal (decision 077): the purchase orders addressed to them.
        route('orders', 'features/purchase-orders/supplier/portal.orders.tsx'),
        route('orders/:id', 'features/purchase-orders/supplier/portal.order.tsx'),
      ]),
      route('settings', 'features/settings/settings.tsx', [
        index('features/settings/settings.index.tsx'),
        route('website', 'features/settings/website/settings.website.tsx'),
        route('modules', 'features/settings/modules/settings.modules.tsx'),
        route('templates', 'features/templates/templates.tsx'),
        route('integrations', 'features/settings/integrations/settings.integrations.tsx'),
        route('integrations/carrier-hook', 'features/shipments/carriers/settings.carrier-hook.tsx'),
        route('users', 'features/settings/users/settings.users.tsx'),
        route('account', 'features/settings/account/settings.account.tsx'),
        route('audit-logs', 'features/settings/audit-logs/settings.audit-logs.tsx'),
        // The helpdesk's business hours and SLA targets (decision 075).
        route('helpdesk', 'features/helpdesk/sla/settings.helpdesk.tsx'),
      ]),
    ]),
  ]),
  // The audit log's CSV download (a resource route, no page).
  route('analytics/export', 'features/analytics/analytics.export.ts'),
  route('settings/audit-logs.csv', 'features/settings/audit-logs/settings.audit-logs.csv.ts'),
  // A compliance item's trail (CSV) and audit package (zip with a SHA-256 manifest), resource routes (issue 37).
  route('compliance/:id/trail.csv', 'features/compliance/item-trail-csv.ts'),
  route('compliance/:id/package.zip', 'features/compliance/item-package.ts'),
  // One evidence file of an item as an attachment (issue 37).
  route('compliance/:id/evidence/:evidenceId', 'features/compliance/evidence-download.ts'),
  // A document's download: a redirect to a short-lived signed Storage link (a resource route, no page).
  route('documents/:id/download', 'features/documents/document-download.ts'),
  // A document's image as bytes from our own origin, for OCR in the browser (decision 032).
  route('documents/:id/image', 'features/documents/document-image.ts'),
  // A document's PDF or image inline, sandboxed, for the frame beside its fields (issue 32).
  route('documents/:id/view', 'features/documents/document-view.ts'),
  // An inbound mail's attachment, as a sandboxed download (decision 071).
  route('messages/:id/attachments/:attachmentId', 'features/helpdesk/attachment-download.ts'),
  // The SLA report as CSV (decision 075).
  route('messages/report.csv', 'features/helpdesk/sla/report-csv.ts'),

  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
