import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Range tables read from the ip-location-db CSV files (see docs/ip-data.md):
 *   country: `start,end,CC`            (dbip-country-ipv4-num.csv, dbip-country-ipv6.csv)
 *   asn:     `start,end,ASN,org name`  (asn-ipv4-num.csv, asn-ipv6.csv)
 * Ranges are inclusive, sorted and disjoint. IPv4 fields may be decimal numbers or dotted quads;
 * IPv6 fields are textual addresses (decimal 128-bit numbers are accepted too, but parse slower).
 *
 * Each table keeps its starts and ends in typed arrays (IPv6: four 32-bit words per address) and a
 * value per row, so a lookup is one binary search with no allocation.
 */

export interface IpDataFiles {
  countryV4: string;
  countryV6: string;
  asnV4: string;
  asnV6: string;
}

export interface RangeTable {
  /** IPv4: one word per row; IPv6: four words per row. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly values: Uint32Array;
  readonly length: number;
}

export interface IpData {
  countryV4: RangeTable;
  countryV6: RangeTable;
  asnV4: RangeTable;
  asnV6: RangeTable;
  /** AS organisation names, one per AS number seen in the files. */
  asnOrgs: Map<number, string>;
  /** Where the tables came from, for logs and docs. */
  files: IpDataFiles;
  /** Milliseconds spent reading and indexing. */
  loadMs: number;
}

/** The CSV files inside the npm data packages (installed as ordinary dependencies). */
export function defaultIpDataFiles(): IpDataFiles {
  const require = createRequire(import.meta.url);
  const dir = (pkg: string) => path.dirname(require.resolve(`${pkg}/package.json`));
  const country = dir('@ip-location-db/dbip-country');
  const asn = dir('@ip-location-db/asn');
  return {
    countryV4: path.join(country, 'dbip-country-ipv4-num.csv'),
    countryV6: path.join(country, 'dbip-country-ipv6.csv'),
    asnV4: path.join(asn, 'asn-ipv4-num.csv'),
    asnV6: path.join(asn, 'asn-ipv6.csv'),
  };
}

/**
 * The same four files in one directory, named as in the packages (and in ip-location-db's own
 * downloads): for running on data newer than the installed packages, e.g. IP_DATA_DIR=/srv/ip-data.
 */
export function ipDataFilesIn(dir: string): IpDataFiles {
  return {
    countryV4: path.join(dir, 'dbip-country-ipv4-num.csv'),
    countryV6: path.join(dir, 'dbip-country-ipv6.csv'),
    asnV4: path.join(dir, 'asn-ipv4-num.csv'),
    asnV6: path.join(dir, 'asn-ipv6.csv'),
  };
}

const cache = new Map<string, IpData>();

/**
 * Reads and indexes the four files. The result is immutable, so it is kept per set of files:
 * a second app in the same process (tests build many) does not pay the ~1 s again.
 */
export function loadIpData(files: IpDataFiles = defaultIpDataFiles()): IpData {
  const key = JSON.stringify(files);
  const hit = cache.get(key);
  if (hit) return hit;
  const started = performance.now();
  const asnOrgs = new Map<number, string>();
  const data: IpData = {
    countryV4: readTable(files.countryV4, 4, countryValue),
    countryV6: readTable(files.countryV6, 6, countryValue),
    asnV4: readTable(files.asnV4, 4, asnValue(asnOrgs)),
    asnV6: readTable(files.asnV6, 6, asnValue(asnOrgs)),
    asnOrgs,
    files,
    loadMs: 0,
  };
  data.loadMs = Math.round(performance.now() - started);
  cache.set(key, data);
  return data;
}

/** Reads the value column(s) of one row starting at `pos`; returns the value to store. */
type ValueReader = (buf: Buffer, pos: number, lineEnd: number) => number;

/** Country codes are stored as two char codes, `(c1 << 8) | c2`; 0 means "no country". */
const countryValue: ValueReader = (buf, pos, lineEnd) => {
  if (lineEnd - pos < 2) return 0;
  const c1 = buf[pos]!;
  const c2 = buf[pos + 1]!;
  // ISO 3166-1 alpha-2 is two ASCII letters; anything else ("ZZ"-like placeholders aside) is dropped.
  if (!isLetter(c1) || !isLetter(c2)) return 0;
  return ((c1 & 0xdf) << 8) | (c2 & 0xdf);
};

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function countryText(value: number): string | null {
  if (value === 0) return null;
  return String.fromCharCode(value >>> 8, value & 0xff);
}

function asnValue(orgs: Map<number, string>): ValueReader {
  return (buf, pos, lineEnd) => {
    let asn = 0;
    while (pos < lineEnd) {
      const c = buf[pos]!;
      if (c < 48 || c > 57) break;
      asn = asn * 10 + (c - 48);
      pos++;
    }
    if (!orgs.has(asn) && buf[pos] === 44 /* , */) orgs.set(asn, readCsvField(buf, pos + 1, lineEnd));
    return asn;
  };
}

/** The rest of the line as one CSV field: either bare or "quoted" with "" for a quote. */
function readCsvField(buf: Buffer, start: number, end: number): string {
  if (end > start && buf[end - 1] === 13 /* \r */) end--;
  if (buf[start] !== 34 /* " */) return buf.toString('utf8', start, end);
  const raw = buf.toString('utf8', start + 1, end);
  const close = raw.lastIndexOf('"');
  return (close === -1 ? raw : raw.slice(0, close)).replaceAll('""', '"');
}

function readTable(file: string, family: 4 | 6, readValue: ValueReader): RangeTable {
  const buf = readFileSync(file);
  let lines = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  lines++; // a last line without a newline
  const words = family === 4 ? 1 : 4;
  const starts = new Uint32Array(lines * words);
  const ends = new Uint32Array(lines * words);
  const values = new Uint32Array(lines);
  const scratch = new Uint32Array(4);
  let rows = 0;
  let pos = 0;
  let line = 0;
  while (pos < buf.length) {
    let lineEnd = buf.indexOf(10, pos);
    if (lineEnd === -1) lineEnd = buf.length;
    line++;
    if (lineEnd > pos && buf[pos] !== 35 /* # */ && buf[pos] !== 13) {
      let p = family === 4 ? readV4(buf, pos, starts, rows) : readV6(buf, pos, starts, rows * 4, scratch);
      if (p < 0 || buf[p] !== 44) throw new Error(`${file}:${line}: malformed range start`);
      p = family === 4 ? readV4(buf, p + 1, ends, rows) : readV6(buf, p + 1, ends, rows * 4, scratch);
      if (p < 0 || buf[p] !== 44) throw new Error(`${file}:${line}: malformed range end`);
      values[rows] = readValue(buf, p + 1, lineEnd);
      rows++;
    }
    pos = lineEnd + 1;
  }
  const table: RangeTable = {
    starts: starts.subarray(0, rows * words),
    ends: ends.subarray(0, rows * words),
    values: values.subarray(0, rows),
    length: rows,
  };
  return isSorted(table, words) ? table : sortTable(table, words);
}

/** Reads a decimal number or a dotted quad at `pos` into `out[at]`; returns the position after it, or -1. */
function readV4(buf: Buffer, pos: number, out: Uint32Array, at: number): number {
  let n = 0;
  let octet = 0;
  let dots = 0;
  const start = pos;
  for (; pos < buf.length; pos++) {
    const c = buf[pos]!;
    if (c >= 48 && c <= 57) octet = octet * 10 + (c - 48);
    else if (c === 46) {
      n = n * 256 + octet;
      octet = 0;
      dots++;
    } else break;
  }
  if (pos === start || (dots !== 0 && dots !== 3)) return -1;
  const value = dots === 0 ? octet : n * 256 + octet;
  if (value > 0xffffffff) return -1;
  out[at] = value;
  return pos;
}

/** Reads a textual IPv6 address (or a 128-bit decimal) at `pos` into `out[at..at+3]`. */
function readV6(buf: Buffer, pos: number, out: Uint32Array, at: number, scratch: Uint32Array): number {
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  let gap = -1; // index in `groups` where "::" stood
  let value = 0;
  let digits = 0;
  let sawColon = false;
  const start = pos;
  for (; pos < buf.length; pos++) {
    const c = buf[pos]!;
    const h = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (h >= 0) {
      value = value * 16 + h;
      digits++;
      if (digits > 4) return sawColon ? -1 : readV6Decimal(buf, start, out, at);
    } else if (c === 58 /* : */) {
      sawColon = true;
      if (buf[pos + 1] === 58) {
        if (gap !== -1) return -1;
        if (digits > 0) groups[count++] = value;
        gap = count;
        pos++;
      } else {
        if (digits === 0 || count >= 8) return -1;
        groups[count++] = value;
      }
      value = 0;
      digits = 0;
    } else break;
  }
  if (!sawColon) return readV6Decimal(buf, start, out, at);
  if (digits > 0) {
    if (count >= 8) return -1;
    groups[count++] = value;
  }
  if (gap !== -1) {
    const shift = 8 - count;
    for (let i = count - 1; i >= gap; i--) groups[i + shift] = groups[i]!;
    for (let i = gap; i < gap + shift; i++) groups[i] = 0;
  } else if (count !== 8) return -1;
  for (let i = 0; i < 4; i++) scratch[i] = ((groups[2 * i]! << 16) | groups[2 * i + 1]!) >>> 0;
  out.set(scratch, at);
  return pos;
}

function readV6Decimal(buf: Buffer, pos: number, out: Uint32Array, at: number): number {
  let end = pos;
  while (end < buf.length && buf[end]! >= 48 && buf[end]! <= 57) end++;
  if (end === pos) return -1;
  let n = BigInt(buf.toString('latin1', pos, end));
  for (let i = 3; i >= 0; i--) {
    out[at + i] = Number(n & 0xffffffffn);
    n >>= 32n;
  }
  return end;
}

function compareAt(a: Uint32Array, i: number, b: Uint32Array, j: number, words: number): number {
  for (let k = 0; k < words; k++) {
    const x = a[i * words + k]!;
    const y = b[j * words + k]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function isSorted(t: RangeTable, words: number): boolean {
  for (let i = 1; i < t.length; i++) if (compareAt(t.starts, i - 1, t.starts, i, words) > 0) return false;
  return true;
}

function sortTable(t: RangeTable, words: number): RangeTable {
  const order = Array.from({ length: t.length }, (_, i) => i).sort((i, j) => compareAt(t.starts, i, t.starts, j, words));
  const starts = new Uint32Array(t.starts.length);
  const ends = new Uint32Array(t.ends.length);
  const values = new Uint32Array(t.length);
  order.forEach((from, to) => {
    starts.set(t.starts.subarray(from * words, from * words + words), to * words);
    ends.set(t.ends.subarray(from * words, from * words + words), to * words);
    values[to] = t.values[from]!;
  });
  return { starts, ends, values, length: t.length };
}

/** Index of the row holding IPv4 `n`, or -1. */
export function findV4(t: RangeTable, n: number): number {
  let lo = 0;
  let hi = t.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (t.starts[mid]! <= n) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found !== -1 && n <= t.ends[found]! ? found : -1;
}

function compareV6(table: Uint32Array, row: number, w: Uint32Array): number {
  const base = row * 4;
  for (let k = 0; k < 4; k++) {
    const x = table[base + k]!;
    const y = w[k]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Index of the row holding the IPv6 address `w` (four words), or -1. */
export function findV6(t: RangeTable, w: Uint32Array): number {
  let lo = 0;
  let hi = t.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compareV6(t.starts, mid, w) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found !== -1 && compareV6(t.ends, found, w) >= 0 ? found : -1;
}
