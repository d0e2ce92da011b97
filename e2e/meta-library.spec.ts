/**
 * The meta-prompt Library view: create an entry and see its full meta-prompt (header + strategy +
 * footer) with a token count; share it as a link, open the link in another browser profile, preview
 * it and add it to the library; a damaged link shows why; "Try this meta-prompt" opens the Learn view with it
 * chosen; built-ins are read-only; an entry file round-trips and a bad one says why.
 */
import { expect, test, type Page } from '@playwright/test';
import { downloadText } from './learn-helpers.ts';
import { encodeShare } from '../src/share/share-link.ts';

async function openLibrary(page: Page): Promise<void> {
  await page.goto('./?view=library');
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
}

const STRATEGY = 'Always write a numbered ROUTE of the commands that scored, then one new goal.';

test('create an entry, see the full meta-prompt and its tokens, share it, add it from the link', async ({ page, browser }) => {
  await openLibrary(page);
  await expect(page.getByTestId('meta-entry')).toHaveCount(4);
  await page.getByTestId('meta-entry').filter({ hasText: 'Fact bank' }).click();
  await expect(page.getByTestId('meta-edit')).toHaveCount(0);
  await expect(page.getByTestId('meta-duplicate')).toHaveText('Duplicate to edit');

  await page.getByTestId('meta-new').click();
  await page.getByTestId('meta-edit-name').fill('Route first');
  await page.getByTestId('meta-edit-description').fill('Replays what scored.');
  await page.getByTestId('meta-edit-strategy').fill(STRATEGY);
  const full = page.getByTestId('meta-full-prompt');
  await expect(full).toContainText('You coach a player of a text adventure game');
  await expect(full).toContainText(`Strategy:\n${STRATEGY}`);
  await expect(full).toContainText('<learn>the complete guiding prompt for the next episode</learn>');
  await expect(page.getByTestId('meta-token-count')).toHaveText(/^\d{3,} tokens$/);
  const withStrategy = Number((await page.getByTestId('meta-token-count').textContent())!.split(' ')[0]!.replace(/,/g, ''));
  await page.getByTestId('meta-save').click();
  await expect(page.getByTestId('meta-message')).toContainText('Saved “Route first”');
  await expect(page.getByTestId('meta-name')).toHaveText('Route first');
  await expect(page.getByTestId('meta-provenance')).toHaveText('Hand-written');
  await page.getByTestId('meta-entry').filter({ hasText: 'Naive' }).click();
  const naive = Number((await page.getByTestId('meta-token-count').textContent())!.split(' ')[0]!.replace(/,/g, ''));
  expect(naive).toBeLessThan(withStrategy);

  // Survives a reload (stored).
  await page.reload();
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('meta-entry').filter({ hasText: 'Route first' }).click();
  await page.getByTestId('meta-share').click();
  const link = await page.getByTestId('meta-share-link').inputValue();
  expect(link).toContain('#share=v1.');

  // Someone else (another browser profile, so another library) opens the link.
  const other = await (await browser.newContext()).newPage();
  await other.goto(link);
  const preview = other.getByTestId('share-preview');
  await expect(preview).toHaveAttribute('data-kind', 'meta-prompt');
  await expect(other.getByTestId('share-name')).toHaveText('Route first');
  await other.getByTestId('share-add').click();
  await expect(preview).toHaveCount(0);
  await expect(other.getByTestId('meta-library')).toBeVisible();
  await expect(other.getByTestId('meta-name')).toHaveText('Route first');
  await expect(other.getByTestId('meta-provenance')).toContainText('Imported from a shared link');
  await expect(other.getByTestId('meta-strategy')).toHaveText(STRATEGY);
  expect(other.url()).not.toContain('#share=');

  // A damaged link.
  await other.goto(`${link.split('#')[0]}#share=v1.${'A'.repeat(40)}`);
  await expect(other.getByTestId('share-error')).toContainText('This share link is damaged');
});

test('"Try this meta-prompt" opens the Learn view with it chosen', async ({ page }) => {
  await openLibrary(page);
  await page.getByTestId('meta-entry').filter({ hasText: 'Credit assignment' }).click();
  await page.getByTestId('meta-try').click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  expect(new URL(page.url()).searchParams.get('metaPrompt')).toBe('credit-assignment');
  await expect(page.getByTestId('learn-policy')).toHaveValue('meta:credit-assignment');
});

test('a setup share link fills the Learn form', async ({ page }) => {
  await page.goto('./?view=learn');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-policy').selectOption('reflexion');
  await page.getByTestId('learn-episodes').fill('4');
  await page.getByTestId('learn-steps').fill('7');
  await page.getByTestId('learn-seed').fill('3');
  await page.getByTestId('learn-share').click();
  const link = await page.getByTestId('learn-share-link').inputValue();
  expect(link).toContain('#share=v1.');

  await page.goto('./?view=library');
  await page.goto(link);
  await expect(page.getByTestId('share-setup')).toContainText('K=4, S=7');
  await page.getByTestId('share-load').click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-policy')).toHaveValue('reflexion');
  await expect(page.getByTestId('learn-episodes')).toHaveValue('4');
  await expect(page.getByTestId('learn-steps')).toHaveValue('7');
  await expect(page.getByTestId('learn-seed')).toHaveValue('3');
  await expect(page.getByTestId('learn-setup-notice')).toContainText('Loaded a shared setup');
});

test('an entry exports to a file and imports back; a bad file says why', async ({ page }) => {
  await openLibrary(page);
  await page.getByTestId('meta-entry').filter({ hasText: 'Route script' }).click();
  const text = await downloadText(page, () => page.getByTestId('meta-export').click());
  expect(JSON.parse(text)).toMatchObject({ format: 'metattl-meta-prompt-1', entry: { name: 'Route script' } });
  const input = page.getByTestId('meta-import');
  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"metattl-meta-prompt-1","entry":{"id":"x","name":"","strategy":"s"}}') });
  await expect(page.getByTestId('meta-error')).toContainText('This is not a valid meta-prompt file: entry.name');
  await input.setInputFiles({ name: 'route.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('meta-message')).toContainText('Imported “Route script”');
  await expect(page.getByTestId('meta-provenance')).toHaveText('Imported from route.json');
  await expect(page.getByTestId('meta-edit')).toBeVisible();
});

test('a share link whose #share= landed in the query, or whose - and _ were encoded twice, opens; the URL is cleaned', async ({ browser }) => {
  const value = encodeShare({ kind: 'meta-prompt', metaPrompt: { name: 'Moved link', description: '', strategy: 'Read the room first; then act. '.repeat(8), provenance: 'shared link', selectedOn: [] } });
  const twice = encodeURIComponent(value.replace(/-/g, '%2D').replace(/_/g, '%5F'));
  for (const path of [`./?view=library&share=${value}`, `./?view=library%23share%3D${value}`, `./#share=${twice}`]) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(path);
    await expect(page.getByTestId('share-preview'), path).toHaveAttribute('data-kind', 'meta-prompt');
    await expect(page.getByTestId('share-name')).toHaveText('Moved link');
    await page.getByTestId('share-add').click();
    await expect(page.getByTestId('meta-name')).toHaveText('Moved link');
    expect(page.url()).not.toContain('share');
    await page.context().close();
  }
});
