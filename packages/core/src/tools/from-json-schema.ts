/**
 * The TypeScript type of the values a JSON Schema declared `as const` accepts: objects
 * (`properties`, `required`, `additionalProperties: false`, an `anyOf` of object branches),
 * arrays (`items`), `enum` / `const`, strings, numbers, integers, booleans, null, `anyOf` /
 * `oneOf` unions and local `$ref`s to `#/$defs/<name>` of `Root` (the whole document, the
 * schema itself by default). Anything else is `unknown`.
 *
 * Used for `session.generateObject(schema, ...)`, {@link defineTool}'s handler arguments and
 * the typed event payloads, so a schema and the type read from it cannot disagree.
 */
export type FromJsonSchema<S, Root = S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly $ref: `#/$defs/${infer Name}` }
      ? Root extends { readonly $defs: infer Defs }
        ? Name extends keyof Defs
          ? FromJsonSchema<Defs[Name], Root>
          : unknown
        : unknown
      : S extends { readonly anyOf: readonly (infer A)[] }
        ? S extends { readonly type: 'object' }
          ? Simplify<ObjectOf<S, Root> & FromJsonSchema<A & { readonly type: 'object' }, Root>>
          : FromJsonSchema<A, Root>
        : S extends { readonly oneOf: readonly (infer O)[] }
          ? FromJsonSchema<O, Root>
          : S extends { readonly type: readonly (infer T)[] }
            ? FromJsonSchema<Omit<S, 'type'> & { readonly type: T }, Root>
            : S extends { readonly type: 'object' }
              ? ObjectOf<S, Root>
              : S extends { readonly type: 'array'; readonly items: infer I }
                ? FromJsonSchema<I, Root>[]
                : S extends { readonly type: 'array' }
                  ? unknown[]
                  : S extends { readonly type: 'string' }
                    ? string
                    : S extends { readonly type: 'number' | 'integer' }
                      ? number
                      : S extends { readonly type: 'boolean' }
                        ? boolean
                        : S extends { readonly type: 'null' }
                          ? null
                          : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<S, Root> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromJsonSchema<P[K], Root> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromJsonSchema<P[K], Root>;
      } & (S extends { readonly additionalProperties: false } ? unknown : Record<string, unknown>)
    >
  : Record<string, unknown>;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
