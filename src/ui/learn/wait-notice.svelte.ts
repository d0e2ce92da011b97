/**
 * "The provider asked us to wait N s" (429/503 Retry-After, or our backoff): a countdown shown
 * while a retry waits, cleared when the wait is over, a step arrives, or the run stops. Time is
 * injected. The countdown itself is `RetryCountdown` (../retry-countdown.svelte.ts).
 */
export { browserSchedule, RetryCountdown as WaitNotice } from '../shared/stores/retry-countdown.svelte.ts';
