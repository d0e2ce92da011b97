/**
 * What a numeric settings field accepts (range, whole numbers, empty = null), and parsing the
 * text a user typed against it. Shared by the settings parser (llm-settings.ts) and the
 * NumberField component. Pure.
 */

export interface NumberRule {
  min: number;
  /** Inclusive upper bound (default: none). */
  max?: number;
  /** Only whole numbers. */
  integer: boolean;
  /** An empty field means null ("none"). */
  nullable: boolean;
}

export type ParsedNumber = { ok: true; value: number | null } | { ok: false; message: string };

/** Whether `value` satisfies `rule` (null only when the rule is nullable). */
export function fits(value: unknown, rule: NumberRule): value is number | null {
  if (value === null) return rule.nullable;
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= rule.min && (rule.max === undefined || value <= rule.max) && (!rule.integer || Number.isInteger(value))
  );
}

/** What the rule asks for, in words ("a whole number from 0 to 10"). */
export function describeRule(rule: NumberRule): string {
  const kind = rule.integer ? 'a whole number' : 'a number';
  const range = rule.max === undefined ? ` of at least ${rule.min}` : ` from ${rule.min} to ${rule.max}`;
  return `${kind}${range}${rule.nullable ? ', or empty for none' : ''}`;
}

/** Parse typed text ('' = null for nullable rules). */
export function parseNumberText(text: string, rule: NumberRule): ParsedNumber {
  const trimmed = text.trim();
  const value = trimmed === '' ? null : Number(trimmed);
  if (value !== null && Number.isNaN(value)) return { ok: false, message: `Enter ${describeRule(rule)}.` };
  return fits(value, rule) ? { ok: true, value } : { ok: false, message: `Enter ${describeRule(rule)}.` };
}

/** The text a field shows for a value ('' for null). */
export const formatNumber = (value: number | null): string => (value === null ? '' : String(value));
