import type { S3LeaseRecord } from './s3-lease-record.js';

/** Outcome of acquiring an S3 session lease: taken, or refused with the current holder. */
export type S3LeaseAttempt = { readonly acquired: true } | { readonly acquired: false; readonly holder: S3LeaseRecord };
