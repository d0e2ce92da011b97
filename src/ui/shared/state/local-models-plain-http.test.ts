/** The in-page model on a page that cannot keep model files (plain http from another machine):
 * every entry point says plainly that it needs https or localhost, and none reaches wllama. */
import { describe, expect, it } from 'vitest';
import { readPageAbilities } from '../page-abilities.ts';
import { LocalModels } from './local-models.svelte.ts';

const lan = readPageAbilities({ isSecureContext: false, crossOriginIsolated: false, navigator: {}, crypto: {}, location: { hostname: 'classroom.test' } });
const NEEDS = /^The in-page model needs https or localhost: this page is plain http from another machine/;

describe('LocalModels on plain http from another machine', () => {
  it('lists nothing and shows no storage error; adding or loading a model says it needs https or localhost', async () => {
    const local = new LocalModels(() => lan);
    expect(local.problem).toMatch(NEEDS);
    expect(local.isolated).toBe(false);
    expect(local.isolationText).toBe('The page is not cross-origin isolated: that needs https or localhost, whatever headers its server sends (this page is plain http from another machine).');
    await local.refresh();
    expect(local.error).toBeNull();
    expect(local.stored).toEqual([]);
    expect(await local.download('https://example.org/model.gguf')).toBeNull();
    expect(local.error).toMatch(NEEDS);
    expect(local.transfer).toBeNull();
    local.error = null;
    expect(await local.addFile(new File([new Uint8Array([71, 71, 85, 70])], 'tiny.gguf'))).toBeNull();
    expect(local.error).toMatch(NEEDS);
    await expect(local.hostFor('tiny.gguf')).rejects.toThrow(NEEDS);
    expect(local.loading).toBeNull();
  });

  it('on a secure page with file storage there is no problem, and isolation follows the page', () => {
    const secure = { ...lan, secure: true, modelStorage: true, isolated: true };
    const local = new LocalModels(() => secure);
    expect(local.problem).toBeNull();
    expect(local.isolated).toBe(true);
  });
});
