/** Types of scripts/cli-build-state.mjs. */
export declare const ROOT: string;
export declare const BUILD_DIR: string;
export declare function staleReason(buildDir?: string, root?: string): string | null;
