/** @phc/format 1.0.0 ships no types: its two functions, as its README documents them. */
declare module '@phc/format' {
  export interface PhcObject {
    id: string;
    version?: number;
    params?: Record<string, string | number>;
    salt?: Buffer;
    hash?: Buffer;
  }
  export function serialize(opts: PhcObject): string;
  export function deserialize(phcstr: string): PhcObject;
}
