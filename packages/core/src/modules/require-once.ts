/**
 * A loader that `require`s a CommonJS module on its first call and returns the same exports
 * after: for a dependency only one feature uses, so importing the package costs nothing for it.
 * `require` is the caller's `createRequire(import.meta.url)` (core itself imports no `node:`
 * module); `T` is the module's type, e.g. `typeof import('yaml')`.
 */
export function requireOnce<T>(require: (id: string) => T, id: string): () => T {
  let loaded: { readonly exports: T } | undefined;
  return () => {
    loaded ??= { exports: require(id) };
    return loaded.exports;
  };
}
