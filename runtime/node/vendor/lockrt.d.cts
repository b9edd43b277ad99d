// Types of the vendored lockrt.cjs (added by `lockfix fix`, LF301 and LF104).
import type { PathLike, WriteFileOptions, OpenMode, Mode, RmOptions, RmDirOptions } from "fs";
import * as fs from "fs";

export type ReleaseResult = "released" | "not-owned" | "missing" | "unknown";

export declare function writeFileExclusiveSync(file: PathLike | number, data: string | NodeJS.ArrayBufferView, options?: WriteFileOptions): void;
export declare function writeFileExclusive(file: PathLike, data: string | NodeJS.ArrayBufferView, options?: WriteFileOptions): Promise<void>;
export declare function openExclusiveSync(file: PathLike, flags?: OpenMode, mode?: Mode | null): number;
export declare function openExclusive(file: PathLike, flags?: OpenMode, mode?: Mode | null): Promise<fs.promises.FileHandle>;
/** fs.mkdirSync / fs.promises.mkdir for a lock directory: the same result and errors, the directory made remembered. */
export declare const mkdirExclusiveSync: typeof fs.mkdirSync;
export declare const mkdirExclusive: typeof fs.promises.mkdir;
export declare function releaseIfOwnedSync(file: PathLike): ReleaseResult;
export declare function releaseIfOwned(file: PathLike): Promise<ReleaseResult>;
export declare function unlinkOwnedSync(file: PathLike): void;
export declare function rmOwnedSync(file: PathLike, options?: RmOptions): void;
export declare function unlinkOwned(file: PathLike): Promise<void>;
export declare function rmOwned(file: PathLike, options?: RmOptions): Promise<void>;
export declare function rmdirOwnedSync(file: PathLike, options?: RmDirOptions): void;
export declare function rmdirOwned(file: PathLike, options?: RmDirOptions): Promise<void>;
/** Judgements a stale takeover binds its removal to: fs's own calls, the same
 * value and errors, remembering the object judged at the path. */
export declare const readFileJudgedSync: typeof fs.readFileSync;
export declare const readFileJudged: typeof fs.promises.readFile;
export declare const statJudgedSync: typeof fs.statSync;
export declare const lstatJudgedSync: typeof fs.lstatSync;
export declare const statJudged: typeof fs.promises.stat;
export declare const lstatJudged: typeof fs.promises.lstat;
/** Remove the path only while it is the object last judged there (else leave it, as if removed). */
export declare function unlinkJudgedSync(file: PathLike): void;
export declare function rmJudgedSync(file: PathLike, options?: RmOptions): void;
export declare function unlinkJudged(file: PathLike): Promise<void>;
export declare function rmJudged(file: PathLike, options?: RmOptions): Promise<void>;
export declare function rmdirJudgedSync(file: PathLike, options?: RmDirOptions): void;
export declare function rmdirJudged(file: PathLike, options?: RmDirOptions): Promise<void>;
export declare function unlinkBoundSync(file: PathLike): void;
export declare function rmBoundSync(file: PathLike, options?: RmOptions): void;
export declare function unlinkBound(file: PathLike): Promise<void>;
export declare function rmBound(file: PathLike, options?: RmOptions): Promise<void>;
export declare function rmdirBoundSync(file: PathLike, options?: RmDirOptions): void;
export declare function rmdirBound(file: PathLike, options?: RmDirOptions): Promise<void>;
export interface LockOptions { timeout?: number }
/** Take the exclusive lock at `file`; the release function it returns does nothing when the lock was not taken. */
export declare function acquireLockSync(file: PathLike, options?: LockOptions): () => void;
export declare function acquireLock(file: PathLike, options?: LockOptions): Promise<() => void>;
/** Take the exclusive lock at `file`; null when the wait ran out on a live holder. Errors (a symlink or a foreign file at the lock path, a missing directory) are thrown. */
export declare function takeLockSync(file: PathLike, options?: LockOptions): (() => void) | null;
export declare function takeLock(file: PathLike, options?: LockOptions): Promise<(() => void) | null>;
/** takeLockSync for a lock directory (made with mkdir; lockrt's owner record is a file inside it). */
export declare function takeLockDirSync(dir: PathLike, options?: LockOptions): (() => void) | null;
/** takeLockDirSync for async code: the wait does not block the event loop. */
export declare function takeLockDir(dir: PathLike, options?: LockOptions): Promise<(() => void) | null>;
/** Is the process the lock file records (its pid) alive and the one that wrote it? (Linux; false when that cannot be told.) */
export declare function holderAliveSync(file: PathLike): boolean;
/** process.kill(pid, 0) for a pid read from `file`; also throws ESRCH when the process started after `file` was last written (a reused pid; Linux). */
export declare function killProbeSync(pid: number, file: PathLike): true;
