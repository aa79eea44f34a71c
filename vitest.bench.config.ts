import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/bench/**/*.bench.ts'],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    testTimeout: 600_000,
  },
});
