// Type declarations for lockrt's Node.js binding (index.js).

export type Strategy = 'auto' | 'oslock' | 'lockfile';
export type Liveness = 'alive' | 'dead' | 'unknown';

export interface LockOptions {
  /** Milliseconds to wait (default 10000); 0 tries once; null, Infinity or negative waits forever. */
  timeout?: number | null;
  /** Default 'auto' (OS lock where it works; the LOCKRT_STRATEGY environment variable may force one). */
  strategy?: Strategy;
}

export interface WriteOptions {
  /** Mode of a newly created file (Unix); default 0o644. */
  mode?: number;
}

export interface Owner {
  /** A number; a bigint only beyond Number.MAX_SAFE_INTEGER (no real pid is). */
  pid: number | bigint;
  startTime: bigint;
  host: string;
  token: string;
}

export declare const status: Readonly<{
  OK: 0; ETIMEDOUT: -1; EINVAL: -2; ESYMLINK: -3; EBADTYPE: -4; EESCAPE: -5; EMISMATCH: -6;
  ENOTOWNER: -7; ENOTSTALE: -8; ENOENT: -9; ECORRUPT: -10; ENOMEM: -11; EIO: -12; ENOTSUP: -13;
}>;

/** Path of the native addon that was loaded. */
export declare const addonPath: string;

export declare class LockrtError extends Error {
  /** "LOCKRT_ESYMLINK", ... */
  readonly code: string;
  /** The lockrt status code (negative). */
  readonly status: number;
  readonly path?: string;
}

export declare class LockHandle {
  readonly path: string;
  /** True until release(). */
  readonly held: boolean;
  readonly strategy: 'oslock' | 'lockfile' | undefined;
  /** Owner token of a lockfile lock; '' for OS locks. */
  readonly token: string | undefined;
  /** Releases the lock; a second call does nothing. */
  release(): void;
}

/** Returns the held lock, or null when it stayed held by a live owner for the whole timeout. */
export declare function exclusiveLock(path: string, opts?: LockOptions): LockHandle | null;
/** Runs fn(acquired) under the lock; if fn returns a promise, releases when it settles. */
export declare function withExclusiveLock<T>(path: string, opts: LockOptions | undefined, fn: (acquired: boolean) => T): T;
export declare function withExclusiveLock<T>(path: string, fn: (acquired: boolean) => T): T;
export declare function confinedPath(dir: string, name: string): string;
export declare function writeAtomic(path: string, data: string | Uint8Array, opts?: WriteOptions): void;
export declare function releaseIfOwned(path: string, token: string): boolean;
export declare function reclaimIfStale(path: string): boolean;
/** pid: an integer; one beyond the platform's pid range (or <= 0) is 'unknown'. */
export declare function processAlive(pid: number | bigint, startTime?: number | bigint): Liveness;
export declare function processStartTime(pid: number | bigint): bigint | null;
export declare function ownerRead(path: string): Owner;
export declare function strerror(status: number): string;
/** Close the idle lock-file descriptors kept after releases (Unix OS locks); held locks stay. */
export declare function closeIdleDescriptors(): void;
/** Bound on kept idle descriptors from now on (0 = none, at most 64); returns the previous one. */
export declare function setKeptDescriptors(max: number): number;

export interface Promises {
  exclusiveLock(path: string, opts?: LockOptions): Promise<LockHandle | null>;
  withExclusiveLock<T>(path: string, opts: LockOptions | undefined, fn: (acquired: boolean) => T | Promise<T>): Promise<T>;
  withExclusiveLock<T>(path: string, fn: (acquired: boolean) => T | Promise<T>): Promise<T>;
  confinedPath(dir: string, name: string): Promise<string>;
  writeAtomic(path: string, data: string | Uint8Array, opts?: WriteOptions): Promise<void>;
  releaseIfOwned(path: string, token: string): Promise<boolean>;
  reclaimIfStale(path: string): Promise<boolean>;
  processAlive(pid: number | bigint, startTime?: number | bigint): Promise<Liveness>;
}

export declare const promises: Promises;
export declare const exclusiveLockAsync: Promises['exclusiveLock'];
export declare const withExclusiveLockAsync: Promises['withExclusiveLock'];
export declare const confinedPathAsync: Promises['confinedPath'];
export declare const writeAtomicAsync: Promises['writeAtomic'];
export declare const releaseIfOwnedAsync: Promises['releaseIfOwned'];
export declare const reclaimIfStaleAsync: Promises['reclaimIfStale'];
export declare const processAliveAsync: Promises['processAlive'];
