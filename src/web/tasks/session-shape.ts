/**
 * Episodes K and steps per episode S a session on web tasks defaults to (the method's web runs:
 * 3 × 10). A module of its own with no imports, so the page's forms and `metattl --help` read it
 * without loading the task catalog; `ttl/run-defaults.ts` puts it beside the story defaults.
 */
export const WEB_DEFAULT_EPISODES = 3;
export const WEB_DEFAULT_MAX_STEPS = 10;
