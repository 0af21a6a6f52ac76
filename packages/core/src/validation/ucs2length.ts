/**
 * Length of `text` in Unicode code points, as JSON Schema's `minLength` / `maxLength` count it:
 * a surrogate pair is one character, a lone surrogate is one too. The runtime helper of the
 * precompiled validators (ajv's standalone code calls it under this name).
 */
export function ucs2length(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point: skip the low half.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    length += 1;
  }
  return length;
}
