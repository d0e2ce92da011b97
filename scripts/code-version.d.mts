/** The code version a build is stamped with: "<version>+<commit>[.dirty]" or "<version>+nogit". */
export function buildCodeVersion(root: string): string;
