import type { Context } from 'hono';
import { z } from 'zod';
import type { ConfirmationAnswerBody } from './session-confirmations.js';
import { ServerError } from './server-error.js';

/** Body of `POST /api/sessions`. */
export const createSessionBody = z.strictObject({ workspace: z.string().min(1).max(4096) });

/** Body of `POST /api/sessions/:id/runs`. */
export const sendBody = z.strictObject({ prompt: z.string().min(1).max(200_000) });

/** Body of `POST /api/sessions/:id/confirmations/:toolId`. */
export const confirmBody = z.strictObject({ approved: z.boolean(), reason: z.string().max(2000).optional() });

/** The answer a parsed {@link confirmBody} gives (no `reason` key when none was sent). */
export function confirmationAnswerOf(body: z.infer<typeof confirmBody>): ConfirmationAnswerBody {
  return body.reason === undefined ? { approved: body.approved } : { approved: body.approved, reason: body.reason };
}

/** The `?delete=` flag of `DELETE /api/sessions/:id` (absent = false; anything but 'true'/'false' is BAD_REQUEST). */
export function deleteFlag(c: Context): boolean {
  const remove = c.req.query('delete');
  if (remove !== undefined && remove !== 'true' && remove !== 'false') throw new ServerError('BAD_REQUEST', "delete must be 'true' or 'false'", { field: 'delete' });
  return remove === 'true';
}
