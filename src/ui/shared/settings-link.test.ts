/** A message's "Settings" becomes the link to the Settings view. */
import { describe, expect, it } from 'vitest';
import { missingKeyText } from '../../llm/providers.ts';
import { settingsParts } from './settings-link.ts';

describe('settingsParts', () => {
  it('its "Settings" is the part the page makes a link', () => {
    expect(settingsParts(missingKeyText({ presetId: 'openai', apiKey: '' })!)).toEqual(['OpenAI needs an API key: add yours in ', 'Settings', '.']);
    expect(settingsParts('No link here.')).toEqual(['No link here.']);
  });
});
