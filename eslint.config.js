import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/', 'build-*/', '.react-router/', '**/.wrangler/', '.data/', 'public/ocr/', 'node_modules/', 'worker-configuration.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Zod must be configured before any schema is built (app/lib/schemas/zod.ts).
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/lib/schemas/zod.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "Import { z } from '~/lib/schemas/zod' (it configures Zod for our CSP).", allowTypeImports: true }] },
      ],
    },
  },
  {
    // Icons render through app/components/icon.tsx (decision 034), from the list in icons.ts.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/lib/schemas/zod.ts', 'app/components/icons.ts', 'app/components/icon.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: "Import { z } from '~/lib/schemas/zod' (it configures Zod for our CSP).", allowTypeImports: true },
            { name: 'lucide-react', message: "Import icons from '~/components/icons' (add the icon there): decision 034." },
          ],
          // One import style: '~/' across folders, './' or '../' within a feature. Paths
          // ending in .ts stay relative (Node scripts and the local backend import those
          // files too), and so do files outside app/ (supabase/functions/_shared).
          patterns: [{ regex: String.raw`^\.\./\.\./(?!.*(\.tsx?$|supabase/))`, message: "Import across folders from '~/…'." }],
        },
      ],
    },
  },
  {
    // Node scripts (test runner, local stack) in plain JavaScript.
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // Deno entries of the Supabase functions run on Deno, not Node.
    files: ['supabase/functions/**/index.ts', 'supabase/functions/_shared/deno-*.ts'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },
);
