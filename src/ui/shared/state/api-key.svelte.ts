/**
 * The provider's API key, held in memory only: a module-level holder whose one field is private,
 * so JSON.stringify, String(), structuredClone and template interpolation of the holder never
 * reveal it. Only the settings state reads it (to fill the password field, to build the settings
 * of a request, and to store it when "remember on this device" is ticked).
 */
import { registerSecret } from '../../../common/secrets.ts';

export class ApiKeyHolder {
  #key = $state('');

  /** The key ('' when none). Use it only for the Authorization header or the password field. */
  reveal(): string {
    return this.#key;
  }

  /** Hold `key`; it is also registered for scrubbing, so nothing stored or exported holds it. */
  set(key: string): void {
    this.#key = key;
    registerSecret(key);
  }

  get isSet(): boolean {
    return this.#key !== '';
  }

  toJSON(): { isSet: boolean } {
    return { isSet: this.isSet };
  }

  toString(): string {
    return this.isSet ? '[API key hidden]' : '[no API key]';
  }
}

/** The page's key holder (lives as long as the page; gone on reload unless remembered). */
export const apiKeyHolder = new ApiKeyHolder();
