export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

export function isoIn(clock: Clock, seconds: number): string {
  return new Date(clock.now().getTime() + seconds * 1000).toISOString();
}

/**
 * Formats instants (milliseconds since the epoch) as ISO 8601 text, remembering the last one: the
 * requests answered within one millisecond format it once. toISOString is about half a microsecond,
 * a visible share of a request that only compares times.
 */
export function isoFormatter(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastText = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastText = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastText;
  };
}
