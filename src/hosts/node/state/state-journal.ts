import { closeSync, constants, fdatasync, fstatSync, openSync, renameSync, write } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { changeText, journalLine, secretLine, sequencesText, type LineSequences } from "./journal-lines.ts";
import type { Database } from "../../../mock/store/records.ts";
import type { LogLevel } from "../../../mock/log-line.ts";
import type { StateChange } from "../../../mock/store/state-change.ts";
import { syncDirectory, type StateFiles } from "./state-files.ts";
import type { SaveResult, StateMeta } from "../../../mock/store/state-persistence.ts";
import { writeSnapshot } from "./state-snapshot.ts";

/** How a change is saved before it is answered. */
export type SyncMode =
  /** Written and synced (fdatasync) before the answer: survives a crash of the process or of the machine. */
  | "fsync"
  /** Written soon after the answer, never synced: as fast as in memory, the last moments can be lost. */
  | "none";

/** The two file operations the journal's appends need; injectable so tests can make them fail. */
export interface JournalIo {
  write(fd: number, bytes: Buffer, position: number): Promise<void>;
  datasync(fd: number): Promise<void>;
}

/** Options of {@link StateJournal}. */
export interface StateJournalOptions {
  files: StateFiles;
  /** The sequence number of the last change already in the files. */
  seq: number;
  sync: SyncMode;
  /** A journal longer than this (bytes) is folded into a new snapshot in the background. */
  compactAfterBytes: number;
  /** The live state, to write a snapshot of. */
  state: () => Database;
  /** The counters and secret to save beside the records, as they are now. */
  meta: () => Omit<StateMeta, "seq">;
  /** Told once when saving starts failing and once when it works again, and when a compaction ends. */
  log: (line: string, level: LogLevel) => void;
  io?: JournalIo;
  /** The snapshot has no meta and no journal line gave its secret: the first write gives it (journal-lines.ts). */
  writeSecret?: boolean;
  /** Milliseconds between attempts while writes fail. */
  retryMs?: number;
}

/** The default size past which the journal is compacted: small enough to replay in about a second. */
export const DEFAULT_COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

/**
 * The append-only journal of a `--db` state. Every change is a line; the changes of one turn of the event loop
 * (and of every turn while the previous write is under way) share one write and one sync: group commit.
 * {@link saved} gives the promise an answer waits for. Past a size, the journal is compacted in the
 * background: the journal is set aside (`.compacting`) and a new one started, a snapshot of the live state is
 * written to a temporary file and synced, then renamed over the snapshot once every change it may hold is
 * synced too, and the set-aside journal removed. A crash at any step leaves files that load to the same state.
 */
export class StateJournal {
  readonly #options: StateJournalOptions;
  readonly #io: JournalIo;
  readonly #files: StateFiles;
  #fd: number;
  #offset: number;
  #lastSeq: number;
  #savedSeq: number;
  /** Changes made but not yet in a write: their sequence number and what changed. */
  #pending: Array<{ seq: number; text: string }> = [];
  /** Lines of a write that failed, written again (at the same place) by the next attempt. */
  #unsaved = "";
  #waiters: Array<{ seq: number; resolve: (result: SaveResult) => void }> = [];
  #writing: Promise<void> | undefined;
  #scheduled = false;
  #retry: NodeJS.Timeout | undefined;
  /** Why saving fails, during a streak of failed writes. */
  #failure: string | undefined;
  #compaction: Promise<void> | undefined;
  /** The sequence number the set-aside journal ends at, while one exists. */
  #rotatedAt: number | undefined;
  #compactionFailure: string | undefined;
  #compactAfter: number;
  #closing = false;
  /** Set once close() has begun: the fd is closed or about to be; nothing may write. */
  #closed: Promise<void> | undefined;
  #fdClosed = false;
  #writeSecret: boolean;

  constructor(options: StateJournalOptions) {
    this.#options = options;
    this.#files = options.files;
    this.#io = options.io ?? nodeIo;
    this.#fd = openJournal(this.#files.journal);
    this.#offset = fstatSync(this.#fd).size;
    // The journal's name must survive a crash of the machine too, not only its synced lines.
    syncDirectory(this.#files.directory);
    this.#lastSeq = options.seq;
    this.#savedSeq = options.seq;
    this.#compactAfter = options.compactAfterBytes;
    this.#writeSecret = options.writeSecret ?? false;
  }

  /** Takes a change; it is written with the others of this turn. */
  append(change: StateChange): void {
    this.#lastSeq += 1;
    this.#pending.push({ seq: this.#lastSeq, text: changeText(change) });
    this.#schedule();
  }

  /**
   * Resolves once every change taken so far is on disk (or the write failed); undefined when there is nothing
   * to wait for, and always with `--db-sync none`, where answers do not wait.
   */
  saved(): Promise<SaveResult> | undefined {
    if (this.#options.sync === "none" || this.#savedSeq >= this.#lastSeq) return undefined;
    return this.#savedThrough(this.#lastSeq);
  }

  /** Why saving fails right now, or undefined while it works. */
  get problem(): string | undefined {
    return this.#failure === undefined
      ? undefined
      : `Changes cannot be saved to ${this.#files.journal}: ${this.#failure}`;
  }

  /** How many changes are not on disk yet. */
  get unsavedCount(): number {
    return this.#lastSeq - this.#savedSeq;
  }

  /** Compacts now (for tests and the bench); resolves when the compaction under way or started ends. */
  compact(): Promise<void> {
    this.#compaction ??= this.#compact().finally(() => (this.#compaction = undefined));
    return this.#compaction;
  }

  /**
   * Stops a compaction under way (its temporary file is removed), writes what is pending, and closes the file.
   * Rejects, saying how many changes were not saved and why, when the last write fails. Always settles.
   */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    // A compaction may wait for a write, and a write may be under way: end both, with at most two last attempts.
    for (let attempts = 0; ; ) {
      await this.#writing;
      if ((this.#pending.length > 0 || this.#unsaved !== "") && attempts < 2) {
        attempts += 1;
        await this.#write();
        continue;
      }
      if (this.#compaction) {
        await this.#compaction;
        continue;
      }
      break;
    }
    this.#fdClosed = true;
    closeSync(this.#fd);
    if (this.#lastSeq > this.#savedSeq) {
      throw new Error(
        `${this.#lastSeq - this.#savedSeq} changes were not saved to ${this.#files.journal}: ` +
          (this.#failure ?? "unknown error"),
      );
    }
  }

  #savedThrough(seq: number): Promise<SaveResult> {
    return new Promise((resolve) => this.#waiters.push({ seq, resolve }));
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing || this.#retry || this.#closing) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (!this.#writing && !this.#fdClosed) void this.#write();
    });
  }

  /** One write (and sync) of every pending line. Never rejects: a failure is kept for the next attempt. */
  #write(): Promise<void> {
    const upto = this.#lastSeq;
    const sequences = sequencesText(this.#sequences());
    let text = this.#unsaved;
    if (this.#writeSecret) {
      // Kept in the unsaved text should the write fail, so written once.
      text += secretLine(this.#options.meta().autologin.secret);
      this.#writeSecret = false;
    }
    for (const entry of this.#pending) text += journalLine(entry.seq, sequences, entry.text);
    this.#pending = [];
    const bytes = Buffer.from(text);
    this.#writing = (async () => {
      try {
        await this.#io.write(this.#fd, bytes, this.#offset);
        if (this.#options.sync === "fsync") await this.#io.datasync(this.#fd);
      } catch (error) {
        this.#unsaved = text;
        if (this.#failure === undefined) {
          this.#options.log(
            `Cannot save changes to ${this.#files.journal}: ${(error as Error).message}. ` +
              "The mock keeps answering from memory; writes answer 503 and /healthz 503 until saving works again.",
            "error",
          );
        }
        this.#failure = (error as Error).message;
        this.#settle(upto, { saved: false, reason: this.problem! });
        if (!this.#closing)
          this.#retry = setTimeout(() => {
            this.#retry = undefined;
            if (!this.#writing) void this.#write();
          }, this.#options.retryMs ?? 500).unref();
        return;
      }
      this.#offset += bytes.length;
      this.#unsaved = "";
      this.#savedSeq = upto;
      if (this.#failure !== undefined) {
        this.#failure = undefined;
        this.#options.log(`Saving to ${this.#files.journal} works again; every change is saved.`, "info");
      }
      this.#settle(upto, { saved: true });
    })().finally(() => {
      this.#writing = undefined;
      if (this.#pending.length > 0) this.#schedule();
      else if (this.#offset > this.#compactAfter && !this.#compaction && !this.#closing && this.#failure === undefined)
        void this.compact();
    });
    return this.#writing;
  }

  #settle(upto: number, result: SaveResult): void {
    let count = 0;
    while (count < this.#waiters.length && this.#waiters[count]!.seq <= upto) count += 1;
    for (const waiter of this.#waiters.splice(0, count)) waiter.resolve(result);
  }

  #sequences(): LineSequences {
    const meta = this.#options.meta();
    return { nextId: meta.nextId, nextUid: meta.nextUid, tokensIssued: meta.autologin.issued };
  }

  async #compact(): Promise<void> {
    const files = this.#files;
    const started = performance.now();
    try {
      await this.#writing;
      if (this.#rotatedAt === undefined) {
        // Set the journal aside and start a new one, between two writes (this block does not yield). Every change
        // up to `rotatedAt` is in the set-aside file; the snapshot below holds at least those.
        if (this.#unsaved !== "") throw new Error("saving the journal fails");
        renameSync(files.journal, files.compacting);
        let fd: number;
        try {
          fd = openJournal(files.journal);
        } catch (error) {
          renameSync(files.compacting, files.journal);
          throw error;
        }
        syncDirectory(files.directory);
        closeSync(this.#fd);
        this.#fd = fd;
        this.#offset = 0;
        this.#rotatedAt = this.#lastSeq;
      }
      const seq = this.#rotatedAt;
      const written = await writeSnapshot(
        files.temporary,
        files.format,
        this.#options.state(),
        () => ({ seq, ...this.#options.meta() }),
        () => this.#closing,
      );
      if (!written) {
        await rm(files.temporary, { force: true });
        return;
      }
      // The snapshot may hold changes made while it was written; it replaces the old one only once they are synced.
      const through = this.#lastSeq;
      if (this.#savedSeq < through) {
        this.#schedule();
        const result = await this.#savedThrough(through);
        if (!result.saved) throw new Error(result.reason);
      }
      await rename(files.temporary, files.snapshot);
      await syncDirectoryAsync(files.directory);
      await rm(files.compacting, { force: true });
      await syncDirectoryAsync(files.directory);
      this.#rotatedAt = undefined;
      this.#compactionFailure = undefined;
      this.#compactAfter = this.#options.compactAfterBytes;
      this.#options.log(
        `Compacted the journal into ${files.snapshot} in ${Math.round(performance.now() - started)} ms`,
        "info",
      );
      // The journal may have passed the size again while this one ran, with no write left to notice.
      if (this.#offset > this.#compactAfter && !this.#closing)
        setImmediate(() => void (this.#compaction ? undefined : this.compact()));
    } catch (error) {
      await rm(files.temporary, { force: true }).catch(() => {});
      if (this.#compactionFailure === undefined) {
        this.#options.log(
          `Cannot compact the journal into ${files.snapshot}: ${(error as Error).message}. ` +
            "Changes are still saved in the journal; trying again later.",
          "warn",
        );
      }
      this.#compactionFailure = (error as Error).message;
      this.#compactAfter = this.#offset + this.#options.compactAfterBytes; // not again at every write
    }
  }
}

/** Opens the journal for writes at chosen places (not O_APPEND: a failed write is written again where it began). */
function openJournal(path: string): number {
  return openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
}

async function syncDirectoryAsync(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const nodeIo: JournalIo = {
  async write(fd, bytes, position) {
    for (let done = 0; done < bytes.length; ) {
      done += await new Promise<number>((resolve, reject) =>
        write(fd, bytes, done, bytes.length - done, position + done, (error, written) =>
          error ? reject(error) : resolve(written),
        ),
      );
    }
  },
  datasync: (fd) => new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
};
