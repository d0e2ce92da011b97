/**
 * What a workshop room still lets a participant use through its forwarder, from `GET /api/me`
 * (src/room/protocol.ts `ParticipantView`: usage and caps). Learn compares its session estimate
 * with it before Start. Pure.
 */

/** What a workshop room still lets the participant use (GET /api/me: caps minus usage; null: no cap). */
export interface RoomAllowance {
  tokens: number | null;
  calls: number | null;
}

/** The room's allowance left from a participant's usage and caps (never below 0; null where uncapped). */
export function roomAllowance(usage: { tokens: number; calls: number }, caps: { maxTokens: number | null; maxCalls: number | null }): RoomAllowance {
  return {
    tokens: caps.maxTokens === null ? null : Math.max(0, caps.maxTokens - usage.tokens),
    calls: caps.maxCalls === null ? null : Math.max(0, caps.maxCalls - usage.calls),
  };
}
