import type { Config } from '@react-router/dev/config';

export default {
  // Server-rendered on the Worker: every page works before (or without) JavaScript.
  ssr: true,
} satisfies Config;
