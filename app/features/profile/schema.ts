// The profile's three forms, told apart by `intent`.
import { z } from '~/lib/schemas/zod';
import { requiredEmail } from '~/lib/schemas/fields';
import { sameTwice } from '~/lib/schemas/passwords';
import { newPasswordFields } from '../password-reset/schema';

const name = z.string().trim().max(100, 'Keep it under 100 characters').optional();

export const profileNameSchema = z.object({
  intent: z.literal('name'),
  first_name: name,
  last_name: name,
});

export const profilePasswordSchema = sameTwice(
  z.object({
    intent: z.literal('password'),
    current_password: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(200, 'Password is too long'),
    ...newPasswordFields,
  }),
);

export const profileEmailSchema = z.object({
  intent: z.literal('email'),
  email: requiredEmail('New email'),
});

export const PROFILE_INTENTS = ['name', 'password', 'email'] as const;
export type ProfileIntent = (typeof PROFILE_INTENTS)[number];
