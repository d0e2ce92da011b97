/**
 * The few host globals every environment of the core provides (browser window, Web Worker,
 * Node main thread and worker_threads). The core's tsconfig has no DOM or Node types, so these
 * are declared here and nothing else leaks in.
 */
declare function setTimeout(handler: () => void, timeoutMs: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function structuredClone<T>(value: T): T;
