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
