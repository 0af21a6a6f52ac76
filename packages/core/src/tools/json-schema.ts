/**
 * A JSON Schema object (draft 2020-12 / draft-07 subset understood by ajv 8). Kept structural
 * on purpose: tools publish plain JSON that goes to the model unchanged.
 */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly [keyword: string]: unknown;
}
