// Supabase Edge Function entry (Deno); the local backend imports handler.ts directly.
import handler from './handler.ts';
import { serveFunction } from '../_shared/deno-deps.ts';

serveFunction(handler);
