// What the profile page says (the signed-in person's own name, password and
// address, behind the avatar menu's Profile item).
export const PROFILE_TEXTS = {
  title: 'Profile',
  description: 'Your own name, password and email address.',
  nameHeading: 'Name',
  saveName: 'Save Name',
  nameSaved: 'Name updated successfully',
  nameFailed: 'Failed to update name',
  passwordHeading: 'Password',
  passwordHint: 'Other devices signed in to your account are signed out when the password changes.',
  savePassword: 'Change Password',
  passwordSaved: 'Password changed successfully',
  passwordFailed: 'Failed to change password',
  wrongPassword: 'Current password is incorrect',
  emailHeading: 'Email address',
  emailHint: 'We email a confirmation link to both the current and the new address; the change takes effect once both are followed.',
  saveEmail: 'Change Email',
  emailSent: {
    message: 'Confirm your new email address',
    description: 'Follow the links we sent to your current and your new address.',
  },
  emailFailed: 'Failed to change email',
  emailPending: (address: string) => `Waiting for confirmation of ${address}.`,
  emailHalfConfirmed: {
    message: 'One link confirmed',
    description: 'Now follow the link sent to the other address to finish the change.',
  },
  emailChanged: { message: 'Email address changed', description: 'You now sign in with your new address.' },
  saving: 'Saving...',
} as const;
