import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * The few regular files of a backup in one POSIX tar (ustar) archive, which `tar tf` lists and `tar xf`
 * unpacks by hand. Sizes from 8 GiB up use GNU tar's base-256 size field, which GNU and BSD tar read.
 */
const BLOCK = 512;
const OCTAL_SIZE_LIMIT = 8 ** 11;

export interface TarSource {
  name: string;
  mode: number;
  /** A file to copy in, or the contents themselves. */
  from: { file: string } | { data: Buffer };
}

export interface TarEntry {
  name: string;
  mode: number;
  size: number;
  /** Where the contents start in the archive. */
  offset: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, mode: number, size: number, mtimeS: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  if (size < OCTAL_SIZE_LIMIT) block.write(octal(size, 12), 124, 'ascii');
  else {
    block[124] = 0x80;
    block.writeBigUInt64BE(BigInt(size), 124 + 4);
  }
  block.write(octal(mtimeS, 12), 136, 'ascii');
  block.write(' '.repeat(8), 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(`${checksum(block).toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The sum of the header's bytes, its checksum field counted as spaces. */
function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Writes the archive to `file` (created, never overwritten, mode 0600) and syncs it to disk. */
export async function writeTar(file: string, sources: TarSource[]): Promise<void> {
  const out = await fs.promises.open(file, 'wx', 0o600);
  try {
    const mtimeS = Math.floor(Date.now() / 1000);
    for (const source of sources) {
      const size = 'data' in source.from ? source.from.data.length : (await fs.promises.stat(source.from.file)).size;
      await out.write(header(source.name, source.mode, size, mtimeS));
      let written = 0;
      if ('data' in source.from) written = (await out.write(source.from.data)).bytesWritten;
      else for await (const chunk of fs.createReadStream(source.from.file)) written += (await out.write(chunk as Buffer)).bytesWritten;
      if (written !== size) throw new Error(`tar: ${source.name} changed while it was being archived`);
      await out.write(Buffer.alloc(padding(size)));
    }
    await out.write(Buffer.alloc(2 * BLOCK));
    await out.sync();
  } finally {
    await out.close();
  }
}

function readSize(block: Buffer): number {
  if (block[124]! & 0x80) return Number(block.readBigUInt64BE(124 + 4));
  return Number.parseInt(block.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
}

const text = (block: Buffer, start: number, length: number) => block.toString('utf8', start, start + length).replace(/\0.*$/s, '');

/** The regular files of an archive writeTar made (or any ustar archive); anything else in it is refused. */
export async function readTar(file: string): Promise<TarEntry[]> {
  const archive = await fs.promises.open(file, 'r');
  try {
    const { size: archiveSize } = await archive.stat();
    const entries: TarEntry[] = [];
    const block = Buffer.alloc(BLOCK);
    let offset = 0;
    for (;;) {
      const { bytesRead } = await archive.read(block, 0, BLOCK, offset);
      if (bytesRead < BLOCK) throw new Error('tar: the archive ends without its end marker (cut short?)');
      if (block.every((byte) => byte === 0)) return entries;
      if (block.toString('ascii', 257, 262) !== 'ustar') throw new Error('tar: not a tar archive');
      const stored = Number.parseInt(block.toString('ascii', 148, 156).replace(/\0.*$/s, '').trim(), 8);
      if (stored !== checksum(block)) throw new Error('tar: a header is damaged (checksum)');
      const type = block.toString('ascii', 156, 157);
      const prefix = text(block, 345, 155);
      const name = prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100);
      const size = readSize(block);
      if (type !== '0' && type !== '\0') throw new Error(`tar: ${name} is not a regular file`);
      const start = offset + BLOCK;
      if (start + size > archiveSize) throw new Error(`tar: ${name} is cut short`);
      entries.push({ name, mode: Number.parseInt(text(block, 100, 8).trim() || '600', 8), size, offset: start });
      offset = start + size + padding(size);
    }
  } finally {
    await archive.close();
  }
}

/** Copies one entry's contents to `destination` (created, never overwritten) and syncs it to disk. */
export async function extractTo(file: string, entry: TarEntry, destination: string, mode: number): Promise<void> {
  const out: FileHandle = await fs.promises.open(destination, 'wx', mode);
  try {
    if (entry.size > 0) {
      for await (const chunk of fs.createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 })) await out.write(chunk as Buffer);
    }
    await out.sync();
  } finally {
    await out.close();
  }
}

/** A small entry's contents (a manifest). */
export async function readEntry(file: string, entry: TarEntry): Promise<Buffer> {
  const archive = await fs.promises.open(file, 'r');
  try {
    const contents = Buffer.alloc(entry.size);
    await archive.read(contents, 0, entry.size, entry.offset);
    return contents;
  } finally {
    await archive.close();
  }
}
