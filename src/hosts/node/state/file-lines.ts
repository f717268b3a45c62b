import { Buffer } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";

/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

const LINE_END = 0x0a;

/**
 * A file's lines, read a chunk at a time, without their line ends. Each line is decoded on its own (a line end's
 * byte is never part of another character in UTF-8), so that one character beyond Latin-1 makes its own line a
 * two-byte string, not its whole chunk; the rest of a chunk is carried to the next. `bytes`, when given, sees
 * each line's bytes with its line end (the last line's without, when the file does not end in one), before the
 * line is yielded: a checksum is taken of the bytes as they are on disk.
 */
export function* fileLines(path: string, bytes?: (line: Uint8Array) => void): Generator<string> {
  const fd = openSync(path, "r");
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let held = 0;
    for (;;) {
      // a line longer than the chunk
      if (held === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = readSync(fd, buffer, held, buffer.length - held, null);
      const filled = held + read;
      let start = 0;
      for (let at = buffer.indexOf(LINE_END, 0); at !== -1 && at < filled; at = buffer.indexOf(LINE_END, start)) {
        bytes?.(buffer.subarray(start, at + 1));
        yield buffer.toString("utf8", start, at);
        start = at + 1;
      }
      if (read === 0) {
        if (start < filled) {
          bytes?.(buffer.subarray(start, filled));
          yield buffer.toString("utf8", start, filled);
        }
        break;
      }
      buffer.copy(buffer, 0, start, filled);
      held = filled - start;
    }
  } finally {
    closeSync(fd);
  }
}

/** The file's first bytes, as text. */
export function fileHead(path: string, length = 256): string {
  const fd = openSync(path, "r");
  try {
    const bytes = new Uint8Array(length);
    return new TextDecoder().decode(bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)));
  } finally {
    closeSync(fd);
  }
}
