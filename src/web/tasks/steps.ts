/**
 * Small builders for oracle scripts (steps aimed at accessibility nodes by role and name), so the
 * task templates read like the clicks a person would make. No DOM.
 */
import type { OracleStep, OracleTarget } from '../interface.ts';

export const link = (name: string, nth?: number): OracleTarget => ({ role: 'link', name, nth });
export const button = (name: string, nth?: number): OracleTarget => ({ role: 'button', name, nth });
export const textbox = (name: string): OracleTarget => ({ role: 'textbox', name });
export const searchbox = (name: string): OracleTarget => ({ role: 'searchbox', name });
export const spinbutton = (name: string): OracleTarget => ({ role: 'spinbutton', name });
export const combobox = (name: string): OracleTarget => ({ role: 'combobox', name });

export const click = (target: OracleTarget): OracleStep => ({ action: 'click', target });
export const fill = (target: OracleTarget, text: string): OracleStep => ({ action: 'fill', target, text });
export const choose = (target: OracleTarget, option: string): OracleStep => ({ action: 'select_option', target, option });
export const press = (target: OracleTarget, key: string): OracleStep => ({ action: 'press', target, key });
export const goto = (url: string): OracleStep => ({ action: 'goto', url });
export const answer = (text: string): OracleStep => ({ action: 'send_msg_to_user', text });
/** The closing message of a navigation or change task. */
export const done = (): OracleStep => answer('done');

/** Cents as the number people write: 1250 → "12.50". */
export const amount = (cents: number): string => (cents / 100).toFixed(2);
