import { defineConfig } from '@playwright/test';

/** e2e against the production build (dist/), served under a sub-path by e2e/serve-dist.ts,
 * in Debian's Chromium (never a downloaded browser). */
/** The server's port: E2E_PORT lets parallel checkouts run e2e at once (default 4317). */
const PORT = Number(process.env.E2E_PORT ?? 4317);
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  workers: 2,
  // On CI one retry: a 2-core VM whose speed swings ~2× over a run has failed single e2e tests
  // on timing. A test that passes only on its retry is reported "flaky" in the list, and
  // one that fails twice still fails the run.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/sub/path/`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `npx tsx e2e/serve-dist.ts ${PORT}`,
    url: `http://127.0.0.1:${PORT}/sub/path/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
