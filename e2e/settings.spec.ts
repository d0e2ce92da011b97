/**
 * The Settings view: presets, saving without the key, the key kept only in memory unless
 * "remember on this device" is ticked (un-ticking deletes it), and "Test connection" against the
 * mock LLM and against a closed port (the CORS / network advice).
 */
import { createServer } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { holdRequests } from './helpers.ts';
import { configureProvider, expectNoKeyLeak, goTo, KEY, openView, settingsSaved } from './llm-helpers.ts';

/** Every record of the page's settings store, as JSON text (read straight from IndexedDB). */
function storedSettings(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('metattl-playground');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const request = open.result.transaction('settings').objectStore('settings').getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve(JSON.stringify(request.result));
          };
          request.onerror = () => reject(new Error(String(request.error)));
        };
      }),
  );
}

/** A TCP port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function reloadSettings(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
}

test('a preset fills the base URL; settings survive a reload, the key does not by default', async ({ page }) => {
  await openView(page, 'settings');
  await expect(page.getByTestId('remember-key')).not.toBeChecked();
  await page.getByTestId('provider-preset').selectOption('ollama');
  await expect(page.getByTestId('base-url')).toHaveValue('http://localhost:11434/v1');
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('base-url').fill('http://127.0.0.1:9/v1');
  await page.getByTestId('api-key').fill(KEY);
  await page.getByTestId('model-actor').fill('my-actor');
  await page.getByTestId('temperature-meta-agent').fill('');
  await page.getByTestId('max-tokens-proposer').fill('999');
  await page.getByTestId('max-retries').fill('1');
  await page.getByTestId('cap-tokens').fill('5000');
  await page.getByTestId('drop-sdk-headers').check();
  await page.locator('[data-testid="price-row"][data-model="gpt-4o"]').getByTestId('price-remove').click();
  await settingsSaved(page);
  expect(await storedSettings(page)).not.toContain(KEY);
  await expectNoKeyLeak(page);

  await reloadSettings(page);
  await expect(page.getByTestId('api-key')).toHaveValue('');
  await expect(page.getByTestId('provider-preset')).toHaveValue('custom');
  await expect(page.getByTestId('base-url')).toHaveValue('http://127.0.0.1:9/v1');
  await expect(page.getByTestId('model-actor')).toHaveValue('my-actor');
  await expect(page.getByTestId('temperature-actor')).toHaveValue('0.5');
  await expect(page.getByTestId('temperature-meta-agent')).toHaveValue('');
  await expect(page.getByTestId('max-tokens-proposer')).toHaveValue('999');
  await expect(page.getByTestId('max-retries')).toHaveValue('1');
  await expect(page.getByTestId('cap-tokens')).toHaveValue('5000');
  await expect(page.getByTestId('cap-usd')).toHaveValue('');
  await expect(page.getByTestId('drop-sdk-headers')).toBeChecked();
  await expect(page.locator('[data-testid="price-row"][data-model="gpt-4o"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="price-row"][data-model="gpt-4o-mini"]')).toHaveCount(1);
});

test('"remember on this device" keeps the key across reloads; un-ticking deletes it', async ({ page }) => {
  await openView(page, 'settings');
  await page.getByTestId('api-key').fill(KEY);
  await page.getByTestId('remember-key').check();
  await settingsSaved(page);
  await reloadSettings(page);
  await expect(page.getByTestId('remember-key')).toBeChecked();
  await expect(page.getByTestId('api-key')).toHaveValue(KEY);
  await expectNoKeyLeak(page);

  await page.getByTestId('remember-key').uncheck();
  await settingsSaved(page);
  expect(await storedSettings(page)).not.toContain(KEY);
  await expect(page.getByTestId('api-key')).toHaveValue(KEY);
  await reloadSettings(page);
  await expect(page.getByTestId('remember-key')).not.toBeChecked();
  await expect(page.getByTestId('api-key')).toHaveValue('');
});

test('an invalid number is refused with what is expected, and not saved', async ({ page }) => {
  await openView(page, 'settings');
  const retries = page.getByTestId('max-retries');
  await retries.fill('-3');
  await expect(page.getByText('Enter a whole number from 0 to 10.')).toBeVisible();
  await expect(retries).toHaveAttribute('aria-invalid', 'true');
  await retries.blur();
  await expect(retries).toHaveValue('2');
  await settingsSaved(page);
  await reloadSettings(page);
  await expect(page.getByTestId('max-retries')).toHaveValue('2');
});

test('the form is read-only until the saved settings are restored; what is typed then is kept, an invalid entry says so', async ({ page }) => {
  // The restore waits for the story shelf, which waits for the catalog: held until the test has
  // seen the form read-only, so the window a busy machine opens by chance is opened on purpose.
  const { release } = await holdRequests(page, '**/stories/catalog.json');
  await page.goto('./?view=settings');
  const retries = page.getByTestId('max-retries');
  await expect(retries).toBeVisible();
  await expect(page.getByTestId('settings')).not.toHaveAttribute('data-loaded', 'true');
  await expect(retries).toBeDisabled();
  await expect(page.getByTestId('base-url')).toBeDisabled();
  release();
  await retries.fill('-3'); // waits until the field is enabled
  await expect(page.getByText('Enter a whole number from 0 to 10.')).toBeVisible();
  // The first-visit tour opens once the store is read, about when the form does: it does not take
  // the focus from the field being typed in (a blur drops the draft and its message).
  await expect(page.getByTestId('tour')).toBeVisible();
  await page.waitForTimeout(800); // a restore or a focus move landing late would show by now
  await expect(retries).toBeFocused();
  await expect(page.getByText('Enter a whole number from 0 to 10.')).toBeVisible();
  await retries.fill('7');
  await page.waitForTimeout(800);
  await expect(retries).toHaveValue('7');
  await settingsSaved(page);
  await reloadSettings(page);
  await expect(retries).toHaveValue('7');
});

test.describe('Test connection', () => {
  let mock: MockLlm;
  test.beforeEach(async () => {
    mock = await startMockLlm({ models: ['mock-model', 'other-model'], apiKey: KEY });
  });
  test.afterEach(async () => {
    await mock.close();
  });

  test('lists the mock\'s models with the key; a closed port shows the CORS / network advice', async ({ page }) => {
    await openView(page, 'settings');
    await configureProvider(page, { baseUrl: mock.baseUrl });
    await page.getByTestId('test-connection').click();
    await expect(page.getByTestId('connection-models')).toContainText('mock-model');
    await expect(page.getByTestId('connection-models')).toContainText('other-model');
    const listing = mock.requests.find((r) => r.behaviour === 'models');
    expect(listing?.headers.authorization).toBe(`Bearer ${KEY}`);

    await page.getByTestId('api-key').fill('wrong-key-999999');
    await page.getByTestId('test-connection').click();
    await expect(page.getByTestId('connection-error')).toContainText('The provider refused the key (HTTP 401)');
    await expect(page.getByTestId('connection-error')).not.toContainText('wrong-key-999999');

    await page.getByTestId('api-key').fill(KEY);
    await page.getByTestId('max-retries').fill('0');
    await page.getByTestId('base-url').fill(`http://127.0.0.1:${await closedPort()}/v1`);
    await page.getByTestId('test-connection').click();
    const error = page.getByTestId('connection-error');
    await expect(error).toContainText('Could not reach', { timeout: 20_000 });
    await expect(error).toContainText('CORS');
    await expect(error).toContainText('OLLAMA_ORIGINS=http://127.0.0.1:');
    await expect(error).toContainText('drop optional SDK headers');
    await expectNoKeyLeak(page);
    await goTo(page, 'agent');
    await expectNoKeyLeak(page);
  });
});
