/**
 * The room's private state shared by several room servers through one Redis: the only importer of
 * ioredis. The Hocuspocus Redis extension (`hocuspocus.ts`) shares the document and presence;
 * this shares what the HTTP routes keep privately (the room's code and tokens, participants'
 * tokens and usage, submission texts, rounds with their hidden tasks).
 *
 * The state is a set of records (`kind`, `id` → a JSON value) in one Redis hash,
 * `<prefix>:state`. Every write is one MULTI of the hash's change and a PUBLISH on
 * `<prefix>:state-changes`, so the other servers apply changes in the order Redis wrote them; each
 * server keeps a memory copy for its synchronous reads (`ForwarderDeps.participant`). `claim`
 * writes a record only if nobody did (HSETNX): the room's identity, a unique name. Rate limits
 * (`takeSlot`: a participant's submissions a minute) are sorted sets `<prefix>:rate:<key>`, taken
 * atomically by one script, so two servers enforce one limit.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { MetattlError } from '../common/errors.ts';
import { registerSecret } from '../common/secrets.ts';
import type { RoomStateBackend, StateRecord } from './seams.ts';

/** Redis could not be reached or refused a command (`code` `room_redis`). */
export class RoomRedisError extends MetattlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('room_redis', message, options);
  }
}

export interface RedisStateOptions {
  /** `redis://host:port[/db]` (as `metattl room --redis URL`). */
  url: string;
  /** Key namespace, shared by every server of one room (default `metattl-room`). */
  prefix?: string;
  /** This server's id (default: a random one); another server's changes only reach `onRemote`. */
  serverId?: string;
  /** How long to try reaching Redis at start before failing (ms, default 5000). */
  connectTimeoutMs?: number;
  /** A lost connection's error in plain words (ioredis reconnects by itself); default: nowhere. */
  log?: (line: string) => void;
}

interface ChangeMessage {
  from: string;
  /** Records written; `wipe: true` removed every record first. */
  records: StateRecord[];
  wipe?: boolean;
}

const fieldOf = (kind: string, id: string): string => `${kind}\u0000${id}`;

/**
 * A sliding-window slot, atomic in Redis: drop the key's slot times (a sorted set scored by ms)
 * older than the window, then take a slot if fewer than the limit remain. KEYS[1] the set; ARGV:
 * now ms, window ms, limit, a unique member. Returns 0 when taken, else the ms until the oldest frees.
 */
const TAKE_SLOT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, window - (now - tonumber(oldest[2])))
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

/** The private state's records in Redis, with the other servers' changes pushed to `onRemote`. */
export class RedisState implements RoomStateBackend {
  readonly serverId: string;
  private readonly hash: string;
  private readonly channel: string;
  private readonly ratePrefix: string;
  private readonly listeners = new Set<(records: StateRecord[], wipe: boolean) => void>();

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    prefix: string,
    serverId: string,
  ) {
    this.serverId = serverId;
    this.hash = `${prefix}:state`;
    this.channel = `${prefix}:state-changes`;
    this.ratePrefix = `${prefix}:rate:`;
  }

  /**
   * Connects (two connections: commands and the change subscription) and subscribes.
   * @throws RoomRedisError when Redis is not reachable within `connectTimeoutMs`.
   */
  static async open(options: RedisStateOptions): Promise<RedisState> {
    const password = URL.canParse(options.url) ? decodeURIComponent(new URL(options.url).password) : '';
    if (password) registerSecret(password);
    const connect = (): Redis => new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: options.connectTimeoutMs ?? 5000 });
    const pub = connect();
    const sub = connect();
    for (const client of [pub, sub]) client.on('error', (error: Error) => options.log?.(`Redis at ${redactUrl(options.url)}: ${error.message}`));
    try {
      await Promise.all([pub.connect(), sub.connect()]);
    } catch (error) {
      pub.disconnect();
      sub.disconnect();
      throw new RoomRedisError(`Redis at ${redactUrl(options.url)} cannot be reached: is redis-server running there?`, { cause: error });
    }
    const state = new RedisState(pub, sub, options.prefix ?? 'metattl-room', options.serverId ?? randomUUID());
    sub.on('message', (_channel: string, text: string) => state.receive(text));
    await sub.subscribe(state.channel);
    return state;
  }

  /**
   * Hands `apply` every record now (`wipe` true: replace the memory copy), then every later change
   * of the other servers, in order; a change made while loading is applied after the load.
   * Returns the unsubscribe.
   */
  async follow(apply: (records: StateRecord[], wipe: boolean) => void): Promise<() => void> {
    const early: [StateRecord[], boolean][] = [];
    let live = false;
    const stop = this.onRemote((records, wipe) => (live ? apply(records, wipe) : early.push([records, wipe])));
    apply(await this.load(), true);
    for (const [records, wipe] of early) apply(records, wipe);
    live = true;
    return stop;
  }

  /** Every record now. */
  async load(): Promise<StateRecord[]> {
    const all = await this.pub.hgetall(this.hash);
    return Object.entries(all).map(([field, text]) => {
      const [kind = '', id = ''] = field.split('\u0000');
      return { kind, id, value: JSON.parse(text) as unknown };
    });
  }

  /** One record's value now, or null. */
  async get(kind: string, id: string): Promise<unknown> {
    const text = await this.pub.hget(this.hash, fieldOf(kind, id));
    return text === null ? null : (JSON.parse(text) as unknown);
  }

  /** Writes records (one MULTI) and tells the other servers. */
  async put(...records: StateRecord[]): Promise<void> {
    if (records.length === 0) return;
    const multi = this.pub.multi();
    for (const r of records) {
      if (r.value === null || r.value === undefined) multi.hdel(this.hash, fieldOf(r.kind, r.id));
      else multi.hset(this.hash, fieldOf(r.kind, r.id), JSON.stringify(r.value));
    }
    multi.publish(this.channel, JSON.stringify({ from: this.serverId, records } satisfies ChangeMessage));
    await multi.exec();
  }

  /**
   * Writes the record only if it is absent (HSETNX); on success the other servers are told.
   * @returns true when this call wrote it, false when it was there already.
   */
  async claim(kind: string, id: string, value: unknown): Promise<boolean> {
    const won = (await this.pub.hsetnx(this.hash, fieldOf(kind, id), JSON.stringify(value))) === 1;
    if (won) await this.pub.publish(this.channel, JSON.stringify({ from: this.serverId, records: [{ kind, id, value }] } satisfies ChangeMessage));
    return won;
  }

  /** Removes every record (the room's end) and tells the other servers. */
  async wipe(): Promise<void> {
    await this.pub.multi().del(this.hash).publish(this.channel, JSON.stringify({ from: this.serverId, records: [], wipe: true } satisfies ChangeMessage)).exec();
  }

  /**
   * Takes one of `limit` slots of `key` in the window of `windowMs` ending at `nowMs`, counted in
   * Redis (`<prefix>:rate:<key>`, a sorted set that expires after the window), so every server of
   * the room enforces one limit.
   * @returns 0 when a slot was taken, else the ms until one frees
   */
  async takeSlot(key: string, limit: number, windowMs: number, nowMs: number): Promise<number> {
    return Number(await this.pub.eval(TAKE_SLOT, 1, `${this.ratePrefix}${key}`, nowMs, windowMs, limit, `${this.serverId}:${randomUUID()}`));
  }

  /** Another server's changes, in Redis's order (`wipe`: every record was removed first). Returns the unsubscribe. */
  onRemote(listener: (records: StateRecord[], wipe: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as ChangeMessage;
    if (message.from === this.serverId) return;
    for (const listener of this.listeners) listener(message.records, message.wipe === true);
  }
}

/** The URL without its password (`redis://:secret@host` → `redis://:***@host`). */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
