import type { Config } from '@react-router/dev/config';

export default {
  // Server-rendered on the Worker: every page works before (or without) JavaScript.
  ssr: true,
  // BUILD_DIR lets parallel runs (several engineers, CI shards) keep separate builds.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
} satisfies Config;
