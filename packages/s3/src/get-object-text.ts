import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { HostFailure } from '@a3s-lab/code-core';

/** A small JSON document read whole, with the ETag of the generation read. */
export interface ObjectText {
  readonly text: string;
  readonly etag: string | undefined;
}

/**
 * Reads a whole object as UTF-8 text (a session document, a lease): `null` when it does not
 * exist; any other failure is thrown as the {@link HostFailure} `toFailure` makes of it.
 */
export async function getObjectText(client: S3Client, bucket: string, key: string, toFailure: (error: unknown) => HostFailure): Promise<ObjectText | null> {
  try {
    const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return { text: (await output.Body?.transformToString('utf8')) ?? '', etag: output.ETag };
  } catch (error) {
    const failure = toFailure(error);
    if (failure.reason === 'NotFound') return null;
    throw failure;
  }
}
