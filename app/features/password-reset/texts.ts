// What the password reset pages say: the link under the sign-in form, the page
// asking for the address, the answer (the same whether or not the address has
// an account) and the page choosing the new password.
export const RESET_TEXTS = {
  forgotLink: 'Forgot password?',
  forgotTitle: 'Reset your password',
  forgotDescription: "Enter your account's email address and we will email you a link to choose a new password.",
  sendButton: 'Send Reset Link',
  sending: 'Sending...',
  sent: {
    message: 'Check your email',
    description: 'If an account uses this address, a link to reset its password is on its way.',
  },
  sendFailed: 'Could not send the reset link',
  backToSignIn: 'Back to Sign In',
  newTitle: 'Choose a new password',
  newDescription: 'You are signed in by the link you followed. Choose the password you will sign in with from now on.',
  saveButton: 'Save Password',
  saving: 'Saving...',
  updated: { message: 'Password updated', description: 'Your new password is set and you are signed in.' },
  updateFailed: 'Failed to update password',
} as const;

export const AUTH_LINK_CLASS = 'text-primary underline-offset-4 hover:underline';
