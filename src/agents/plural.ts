/**
 * Counted nouns in the words users read (CLI lines, the page): "1 point", "2 points", "0 steps".
 * English plural rule (one vs. other, as Intl.PluralRules('en') gives); no DOM, no imports.
 */

/** `count` and `noun`, the noun plural unless `count` is exactly 1 ("1 point", "0 points",
 * "1.5 points"). `pluralNoun` for irregular nouns (default: `noun` + "s"). */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
