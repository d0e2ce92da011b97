/**
 * The mock-only baseline of the loop-overhead bench (bench helper, not a test): the same request
 * bodies, in the same shape — `sessions` chains of dependent calls, `concurrency` chains at a
 * time — sent by a bare keep-alive node:http client that does nothing between calls. Its wall ÷
 * ideal is what the mock (its timers, JSON, hashing), loopback HTTP and the machine's load cost
 * with none of our code; the product's ratio over this one is our own overhead.
 */
import http from 'node:http';

/** Wall time of replaying `chain` (one session's request bodies, in order) `sessions` times. */
export async function replayChains(baseUrl: string, chain: readonly string[], sessions: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const url = new URL(`${baseUrl.replace(/\/$/, '')}/chat/completions`);
  const post = (body: string): Promise<void> => new Promise((done, fail) => {
    const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`baseline: HTTP ${res.statusCode}`))));
    });
    request.on('error', fail);
    request.end(body);
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sessions) {
      next++;
      for (const body of chain) await post(body);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, sessions) }, worker));
  const wallMs = performance.now() - started;
  agent.destroy();
  return wallMs;
}
