import type { Context } from 'hono';
import type { z } from 'zod';
import { ServerError } from './server-error.js';

/** A W3C `traceparent` header value (version 00-fe, lowercase hex). */
export const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Parses the JSON body against `schema`; BAD_REQUEST (with the zod issues) when it does not match. */
export async function readJson<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let value: unknown;
  try {
    value = await c.req.json();
  } catch {
    throw new ServerError('BAD_REQUEST', 'the body must be a JSON object');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServerError('BAD_REQUEST', `invalid body: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) });
  }
  return parsed.data;
}

/** A non-negative integer cursor parameter, or undefined when absent. */
export function cursor(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new ServerError('BAD_REQUEST', `${name} must be a non-negative integer; got '${value}'`, { field: name });
  return Number(value);
}

/** Refuses query parameters outside `allowed` (BAD_REQUEST): the API never ignores input. */
export function knownQuery(c: Context, allowed: readonly string[]): void {
  for (const key of Object.keys(c.req.queries())) {
    if (!allowed.includes(key)) throw new ServerError('BAD_REQUEST', `unknown query parameter '${key}'`, { field: key });
  }
}

/** The request's W3C `traceparent` header when well-formed (an invalid one is ignored, as the spec says). */
export function traceparentOf(c: Context): string | undefined {
  const value = c.req.header('traceparent')?.trim();
  return value !== undefined && TRACEPARENT.test(value) ? value : undefined;
}
