/**
 * JSON encoding that keeps binary data: typed arrays and ArrayBuffers become
 * `{"$binary": "<TypeName>", "base64": "..."}` and come back as the same type. Used by the file
 * store for snapshots (Quetzal bytes) and story files. No DOM or Node APIs (base64 by hand is
 * avoided: `btoa`/`atob` exist in browsers and Node ≥ 16).
 */

const TYPED = {
  Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array,
} as const;
type TypedName = keyof typeof TYPED;

const isTypedName = (name: unknown): name is TypedName => typeof name === 'string' && Object.hasOwn(TYPED, name);

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof ArrayBuffer) return { $binary: 'ArrayBuffer', base64: toBase64(new Uint8Array(value)) };
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const name = value.constructor.name;
    if (isTypedName(name)) return { $binary: name, base64: toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
  }
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const v = value as { $binary?: unknown; base64?: unknown };
  if (typeof v.base64 !== 'string' || Object.keys(v).length !== 2) return value;
  const bytes = fromBase64(v.base64);
  if (v.$binary === 'ArrayBuffer') return bytes.buffer;
  if (isTypedName(v.$binary)) {
    const Type = TYPED[v.$binary];
    return new Type(bytes.buffer, 0, bytes.byteLength / Type.BYTES_PER_ELEMENT);
  }
  return value;
}

/** JSON text of `value`, binary data included. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, replacer);
}

/** Parse text written by `encodeJson`. @throws SyntaxError for malformed JSON */
export function decodeJson(text: string): unknown {
  return JSON.parse(text, reviver);
}
