/**
 * The few host globals every environment of the core provides (browser window, Web Worker,
 * Node main thread and worker_threads). The core's tsconfig has no DOM or Node types, so these
 * are declared here and nothing else leaks in.
 */
declare function setTimeout(handler: () => void, timeoutMs: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function structuredClone<T>(value: T): T;
/** The part of AbortSignal the core uses (WHATWG DOM §3.1; the same object in browsers and Node). */
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
/** WHATWG DOM §3.1 AbortController (browsers and Node alike). */
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
/** The part of WHATWG URLSearchParams the core uses (browsers, Workers and Node alike). */
declare class URLSearchParams {
  constructor(init?: string | Record<string, string> | [string, string][] | URLSearchParams);
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  toString(): string;
}
/** The part of WHATWG URL the core uses (browsers, Workers and Node alike). @throws TypeError for an invalid URL */
declare class URL {
  constructor(url: string, base?: string);
  readonly href: string;
  readonly origin: string;
  readonly host: string;
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
}
