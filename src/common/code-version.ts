/**
 * The version of the code that made a record: stamped at build time (scripts/code-version.mjs,
 * through esbuild's and Vite's `define`) as "<package version>+<git commit, 12 hex>", with ".dirty"
 * when tracked files differed from that commit, or "<version>+nogit" outside a git checkout.
 */
declare const __METATTL_CODE_VERSION__: string | undefined;

/**
 * The code version stamped into every results.json, experiment.json, registration and session
 * record: e.g. "0.1.0+3f9c2a1b4d5e". "unknown" when the code runs unbuilt (no stamp): the record
 * then says honestly that the version is not known.
 */
export function codeVersion(): string {
  const stamped = typeof __METATTL_CODE_VERSION__ === 'string' ? __METATTL_CODE_VERSION__ : '';
  return stamped || 'unknown';
}
