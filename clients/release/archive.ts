/**
 * The names of the files inside a release artifact, read with Node alone (no unzip or tar on the
 * machine needed): zip-based ones (.whl, .zip, .jar, .nupkg), tarballs (.tgz, .tar.gz) and gems (a
 * plain tar whose data.tar.gz holds the files).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, inflateRawSync } from 'node:zlib';

/** Whether the file is an archive this module lists, by its name. */
export function isArchive(file: string): boolean {
  return /\.(?:zip|whl|jar|nupkg|snupkg|tgz|tar\.gz|gem)$/.test(file);
}

export function archiveEntries(file: string): string[] {
  const bytes = readFileSync(file);
  if (file.endsWith('.gem')) {
    const data = tarFiles(bytes).get('data.tar.gz');
    if (!data) throw new Error(`${file}: a gem without data.tar.gz`);
    return [...tarFiles(gunzipSync(data)).keys()];
  }
  if (bytes.readUInt32LE(0) === 0x04034b50) return zipEntries(bytes, file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return [...tarFiles(gunzipSync(bytes)).keys()];
  throw new Error(`${file}: neither a zip nor a gzipped tar`);
}

/** The content of one file inside a zip-based artifact (a .nupkg's .nuspec, a wheel's METADATA). */
export function zipFile(file: string, name: string): Buffer {
  const bytes = readFileSync(file);
  const entry = zipDirectory(bytes, file).find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`${file}: no ${name} inside`);
  // The local header repeats the name and has an extra field of its own length before the data.
  const data = entry.localHeader + 30 + bytes.readUInt16LE(entry.localHeader + 26) + bytes.readUInt16LE(entry.localHeader + 28);
  const stored = bytes.subarray(data, data + entry.compressedSize);
  if (entry.method === 0) return stored;
  if (entry.method === 8) return inflateRawSync(stored);
  throw new Error(`${file}: ${name} is compressed with method ${entry.method}, neither stored nor deflated`);
}

function zipEntries(bytes: Buffer, file: string): string[] {
  return zipDirectory(bytes, file).map((entry) => entry.name);
}

/** A zip's central directory: the end record (searched from the end, past any comment) points to it. */
function zipDirectory(bytes: Buffer, file: string): { name: string; method: number; compressedSize: number; localHeader: number }[] {
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file}: a zip without its central directory`);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: a damaged central directory`);
    const nameLength = bytes.readUInt16LE(at + 28);
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      localHeader: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/** A tar's regular files by name (ustar prefix, GNU long names and pax paths included). */
function tarFiles(bytes: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let longName: string | undefined;
  for (let at = 0; at + 512 <= bytes.length; ) {
    const header = bytes.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const text = (from: number, length: number) => header.toString('utf8', from, from + length).replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1) || '0';
    const body = bytes.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
    } else if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1] ?? longName;
    } else {
      const prefix = text(345, 155);
      const name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
      longName = undefined;
      if (type === '0' || type === '7') files.set(name, body);
    }
  }
  return files;
}
