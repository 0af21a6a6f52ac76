import type { SecurityProvider } from '../../security/security-provider.js';
import type { ToolErrorKind } from '../../errors/tool-error-kind.js';
import type { ToolOutput } from '../../tools/tool-result.js';

/**
 * Stage 13: redacts the output text, the error kind and the metadata with the session's
 * {@link SecurityProvider} — before any truncation, so a secret cannot survive half-cut.
 * Returns the same object when nothing changed.
 */
export function sanitizeOutput(security: SecurityProvider, output: ToolOutput): ToolOutput {
  const text = security.redact(output.output);
  const errorKind = output.errorKind === undefined ? undefined : (security.redactValue(output.errorKind) as ToolErrorKind);
  const metadata = output.metadata === undefined ? undefined : (security.redactValue(output.metadata) as Readonly<Record<string, unknown>>);
  if (text === output.output && errorKind === output.errorKind && metadata === output.metadata) return output;
  return {
    ...output,
    output: text,
    ...(errorKind === undefined ? {} : { errorKind }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}
