/** A preset that needs a key refuses a run with one sentence when none is set (issue 19, item 4). */
import { describe, expect, it } from 'vitest';
import { missingKeyText, PROVIDER_PRESETS } from './providers.ts';

describe('missingKeyText', () => {
  it('names the preset for every preset that needs a key, and nothing for keyless ones or with a key', () => {
    for (const preset of PROVIDER_PRESETS) {
      const text = missingKeyText({ presetId: preset.id, apiKey: '' });
      expect(text).toBe(preset.needsKey ? `${preset.label} needs an API key: add yours in Settings.` : null);
      expect(missingKeyText({ presetId: preset.id, apiKey: 'sk-abc' })).toBeNull();
    }
    expect(missingKeyText({ presetId: 'openai', apiKey: '   ' })).toBe('OpenAI needs an API key: add yours in Settings.');
    expect(missingKeyText({ presetId: 'no-such-preset', apiKey: '' })).toBeNull();
  });

});
