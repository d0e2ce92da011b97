/** Types of scripts/build-cli.mjs. */
export declare function buildCli(): Promise<string>;
