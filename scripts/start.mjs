import { runLocalStack } from './local-stack.mjs';

await runLocalStack({ mode: 'start' });
