/**
 * Error bodies of the OpenAI-compatible servers we list, read into one shape. Documented forms:
 * OpenAI, Groq, LM Studio, LiteLLM, DeepSeek, llama.cpp (`{"error":{message,type,code}}`, code
 * may be a number), vLLM (`{"object":"error","message",type,param,code}` — no `error` key),
 * Ollama (`{"error":"text"}` or the OpenAI form), OpenRouter (`{"error":{code:<http>,message,
 * metadata}}`, also inside 200s and stream chunks), Gemini's compatible endpoint (array-wrapped,
 * `[{"error":{code,message,status}}]`), Anthropic's compatible endpoint (`{"type":"error",
 * "error":{type,message}}`), FastChat's `{"text","error_code"}` and FastAPI-style `{"detail":…}`. DOM-free; imports nothing.
 */

/** A provider's error, whatever its framing. `status` is the HTTP status the body names (a numeric
 * `code`, OpenRouter's and Gemini's form), null when it names none. */
export interface ProviderError {
  message: string;
  type: string | null;
  code: string | null;
  param: string | null;
  status: number | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

/**
 * The error a parsed body carries, or null when it is not an error body (e.g. a completion).
 * A `message` is always present: the provider's own when it sent one, else the body as JSON
 * (cut to 300 characters).
 */
export function providerErrorOf(body: unknown): ProviderError | null {
  if (Array.isArray(body)) return body.length > 0 && body.every((b) => isObject(b) && b.error !== undefined) ? providerErrorOf(body[0]) : null;
  if (!isObject(body)) return null;
  const inner = body.error;
  if (inner !== undefined && inner !== null && inner !== false) {
    if (typeof inner === 'string') return fromFields({ message: inner, type: body.type, code: body.code ?? body.status, param: body.param }, body);
    if (isObject(inner)) return fromFields(inner, body);
    return fromFields({ message: JSON.stringify(inner) }, body);
  }
  if (body.object === 'error' || body.type === 'error') return fromFields(body, body);
  // FastChat (and servers built on it): `{"text": "NETWORK ERROR …", "error_code": 50004}`, also
  // as a chunk inside a stream; its codes (4xxxx, 5xxxx) are not HTTP statuses.
  if (body.choices === undefined && body.error_code !== undefined && body.error_code !== null && body.error_code !== 0) {
    return { ...fromFields({ message: text(body.text) ?? text(body.message) ?? JSON.stringify(body).slice(0, 300) }, body), code: String(body.error_code) };
  }
  if (body.choices === undefined && body.detail !== undefined) {
    const detail = Array.isArray(body.detail) ? body.detail.map((d) => (isObject(d) ? `${Array.isArray(d.loc) ? d.loc.join('.') + ': ' : ''}${String(d.msg ?? '')}` : String(d))).join('; ') : body.detail;
    return fromFields({ message: text(detail) ?? JSON.stringify(detail) }, body);
  }
  return null;
}

function fromFields(e: Json, whole: unknown): ProviderError {
  const rawCode = e.code ?? null;
  const numeric = typeof rawCode === 'number' ? rawCode : typeof e.status === 'number' ? e.status : typeof rawCode === 'string' && /^\d{3}$/.test(rawCode) ? Number(rawCode) : null;
  const status = numeric !== null && numeric >= 100 && numeric <= 599 ? numeric : null;
  const metadata = isObject(e.metadata) && typeof e.metadata.raw === 'string' ? ` (${e.metadata.raw.slice(0, 300)})` : '';
  const message = (text(e.message) ?? text(e.msg) ?? text(e.detail) ?? JSON.stringify(whole).slice(0, 300)) + metadata;
  const type = text(e.type) ?? (typeof e.status === 'string' ? e.status : null);
  return { message, type: type === 'error' ? null : type, code: rawCode === null ? null : String(rawCode), param: text(e.param), status };
}

/** The body in OpenAI's framing (`{"error":{message,type,param,code}}`), for the SDK's error
 * mapping; `code` keeps the provider's value (a number for OpenRouter). */
export function openAiErrorBody(e: ProviderError): string {
  return JSON.stringify({ error: { message: e.message, type: e.type, param: e.param, code: e.code } });
}
