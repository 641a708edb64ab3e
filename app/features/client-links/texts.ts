// What Resend and Copy client link say, on a quote's and an invoice's page.
export const CLIENT_LINK_TEXTS = {
  resend: 'Resend',
  copyLink: 'Copy client link',
  resent: (email: string) => `Sent again to ${email}`,
  resendFailed: 'Failed to send again',
  linkMade: 'New client link made. The link sent before no longer works.',
  linkFailed: 'Failed to make a client link',
  fieldLabel: 'Client link',
  fieldNote: 'Anyone with this link can open the document. The link sent before no longer works.',
} as const;
