import type { S3LeaseAttempt } from './s3-lease-attempt.js';

/**
 * The public members of `S3SessionLeases` of `@a3s-lab/code-s3` (which implements this), typed
 * structurally: what `S3SessionStore.sessionLeases()` of `@a3s-lab/code` resolves with, so that
 * `@a3s-lab/code`'s typings need neither the optional S3 package nor the AWS SDK.
 */
export interface S3SessionLeasesLike {
  /** Id of this process as it appears in a lease record's `owner`. */
  readonly owner: string;
  readonly bucket: string;
  /** Normalised key prefix; lease objects are `<prefix>/leases/<sessionId>.lease`. */
  readonly prefix: string;
  /** How often a holder should renew: a third of the lifetime. */
  readonly renewIntervalMs: number;
  /** Takes the lease of `sessionId` if it is free or expired (not re-entrant). */
  acquire(sessionId: string): Promise<S3LeaseAttempt>;
  /** Extends a lease this owner holds; false when it was lost (expired and taken over). */
  renew(sessionId: string): Promise<boolean>;
  /** Gives the lease back (no-op when this owner does not hold it). */
  release(sessionId: string): Promise<void>;
  /** Names the base URL where this process serves (written into the leases it takes from then on). */
  advertise?(endpoint: string): void;
  /** Closes the S3 client the leases built (not one passed in). */
  close(): void;
}
