/**
 * Workshops without keys: a local preset never keeps an OpenAI model name, Test
 * connection fills empty models and offers each listed model in one click, and a teacher's setup
 * link (preset, base URL, models — never a key) opens Settings with a preview on another machine
 * and fills them when applied.
 */
import { expect, test } from '@playwright/test';
import { zlibSync, strToU8 } from 'fflate';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { expectNoKeyLeak, KEY, openView, settingsSaved } from './llm-helpers.ts';

let mock: MockLlm;
test.beforeEach(async () => {
  mock = await startMockLlm({ models: ['room-actor-model', 'room-meta-model'] });
});
test.afterEach(async () => {
  await mock.close();
});

test('a local preset empties OpenAI model names; Test connection fills the actor\'s and offers each model for every role', async ({ page }) => {
  await openView(page, 'settings');
  await expect(page.getByTestId('model-actor')).toHaveValue('gpt-4o-mini');
  for (const preset of ['ollama', 'lmstudio', 'llamacpp']) {
    await page.getByTestId('provider-preset').selectOption('openai');
    await page.getByTestId('model-actor').fill('gpt-4o-mini');
    await page.getByTestId('provider-preset').selectOption(preset);
    for (const role of ['actor', 'meta-agent', 'proposer']) await expect(page.getByTestId(`model-${role}`), `${preset} ${role}`).toHaveValue('');
  }
  // The room's server (the mock, at its own address) lists two models: the empty roles get the first.
  await page.getByTestId('base-url').fill(mock.baseUrl);
  await page.getByTestId('test-connection').click();
  await expect(page.getByTestId('connection-filled')).toHaveText('The actor’s model is now room-actor-model, the first this server lists (it was empty or not one of them). Choose another below.');
  await expect(page.getByTestId('model-actor')).toHaveValue('room-actor-model');
  // The others stay empty: they use the actor's model.
  for (const role of ['meta-agent', 'proposer']) await expect(page.getByTestId(`model-${role}`)).toHaveValue('');
  await page.locator('[data-testid="use-model"][data-model="room-meta-model"]').click();
  for (const role of ['actor', 'meta-agent', 'proposer']) await expect(page.getByTestId(`model-${role}`)).toHaveValue('room-meta-model');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('connection-models').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/setup-link-models.png' });
});

test('a teacher\'s setup link opens Settings with a preview elsewhere and fills preset, base URL and models, never a key', async ({ page, browser }) => {
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('lmstudio');
  await page.getByTestId('base-url').fill(mock.baseUrl);
  await page.getByTestId('api-key').fill(KEY);
  await page.getByTestId('model-actor').fill('room-actor-model');
  await page.getByTestId('model-meta-agent').fill('room-meta-model');
  await page.getByTestId('model-proposer').fill('room-meta-model');
  await settingsSaved(page);
  await page.getByTestId('make-setup-link').click();
  const link = await page.getByTestId('setup-link').inputValue();
  expect(link).toContain('#share=v1.');
  expect(link).toContain('?view=settings');
  expect(link).not.toContain(KEY);

  // A participant's machine: a fresh browser context with its own (empty) storage.
  const participant = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 800 } });
  const other = await participant.newPage();
  try {
    await other.goto(link);
    const preview = other.getByTestId('share-preview');
    await expect(preview).toHaveAttribute('data-kind', 'provider');
    await expect(other.getByTestId('share-provider-url')).toHaveText(mock.baseUrl);
    await expect(other.getByTestId('share-provider')).toContainText('room-actor-model');
    await expect(other.getByTestId('share-provider')).toContainText('room-meta-model');
    await other.screenshot({ path: 'test-results/setup-link-preview.png' });
    // Nothing is applied before the participant says so.
    await expect(other.getByTestId('model-actor')).toHaveValue('gpt-4o-mini');
    await other.getByTestId('share-apply').click();
    await expect(preview).toHaveCount(0);
    await expect(other.getByTestId('settings')).toHaveAttribute('data-pending', '0');
    await expect(other.getByTestId('base-url')).toHaveValue(mock.baseUrl);
    await expect(other.getByTestId('model-actor')).toHaveValue('room-actor-model');
    await expect(other.getByTestId('model-meta-agent')).toHaveValue('room-meta-model');
    await expect(other.getByTestId('model-proposer')).toHaveValue('room-meta-model');
    await expect(other.getByTestId('api-key')).toHaveValue('');
    expect(new URL(other.url()).hash).toBe('');
    await expectNoKeyLeak(other);
    // Kept across a reload, and the link is not asked about again.
    await other.reload();
    await expect(other.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
    await expect(other.getByTestId('model-actor')).toHaveValue('room-actor-model');
    await expect(other.getByTestId('share-preview')).toHaveCount(0);

    // A hand-made link that carries a key is refused as a whole, and says why.
    const payload = { kind: 'provider', provider: { presetId: 'custom', baseUrl: 'http://10.9.9.9:8080/v1', apiKey: 'sk-leaked-999999', models: { actor: 'x', metaAgent: '', proposer: '' } } };
    const value = 'v1.' + Buffer.from(zlibSync(strToU8(JSON.stringify(payload)))).toString('base64url');
    await other.goto(`./?view=settings#share=${value}`);
    await expect(other.getByTestId('share-error')).toContainText('carries an API key, so it was not applied');
    await expect(other.getByTestId('base-url')).toHaveValue(mock.baseUrl);
  } finally {
    await participant.close();
  }
});
