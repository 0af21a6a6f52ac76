/**
 * The TypeScript type of the values a JSON Schema declared `as const` accepts, for
 * `session.generateObject(schema, ...)`: objects (`properties`, `required`,
 * `additionalProperties: false`), arrays (`items`), `enum` / `const`, strings, numbers,
 * integers, booleans, null, and `anyOf` / `oneOf` unions. Anything else is `unknown`.
 */
export type FromJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? FromJsonSchema<A>
      : S extends { readonly oneOf: readonly (infer O)[] }
        ? FromJsonSchema<O>
        : S extends { readonly type: readonly (infer T)[] }
          ? FromJsonSchema<Omit<S, 'type'> & { readonly type: T }>
          : S extends { readonly type: 'object' }
            ? ObjectOf<S>
            : S extends { readonly type: 'array'; readonly items: infer I }
              ? FromJsonSchema<I>[]
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

type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromJsonSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromJsonSchema<P[K]>;
      } & (S extends { readonly additionalProperties: false } ? unknown : Record<string, unknown>)
    >
  : Record<string, unknown>;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
