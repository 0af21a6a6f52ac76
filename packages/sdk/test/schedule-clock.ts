// The compressed time base of the fleet schedules test: fake time runs `rate` times faster than
// real time from (baseRealMs, baseFakeMs); a host's clock reads it shifted by offsetMs, and its
// timers wait rate times less real time. The database's pg-boss clock (job_now() of the schedules'
// schema) is replaced by the same function of real time, without the shift.
import type { ScheduleClock } from '../src/index.js';

export interface CompressedTime {
  readonly baseRealMs: number;
  readonly baseFakeMs: number;
  readonly rate: number;
}

/** Fake time now (no shift). */
export function fakeNow(time: CompressedTime, realMs = Date.now()): number {
  return time.baseFakeMs + (realMs - time.baseRealMs) * time.rate;
}

/** A host's clock: compressed, shifted by `offsetMs` (its own clock error). */
export function compressedClock(time: CompressedTime & { readonly offsetMs: number }): ScheduleClock & { setInterval(callback: () => void, delayMs: number): unknown; clearInterval(handle: unknown): void } {
  return {
    now: () => fakeNow(time) + time.offsetMs,
    setTimeout: (callback, delayMs) => setTimeout(callback, Math.max(0, delayMs / time.rate)),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    setInterval: (callback, delayMs) => setInterval(callback, Math.max(1, delayMs / time.rate)),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  };
}

/** SQL that makes `<schema>.job_now()` (what every pg-boss statement of the schema reads) the compressed time. */
export function compressedJobNowSql(schema: string, time: CompressedTime): string {
  return `CREATE OR REPLACE FUNCTION ${schema}.job_now() RETURNS timestamp with time zone AS $$
    SELECT to_timestamp(${time.baseFakeMs / 1000}) + (now() - to_timestamp(${time.baseRealMs / 1000})) * ${time.rate}
  $$ LANGUAGE sql STABLE;`;
}
