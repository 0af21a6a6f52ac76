const SLASH = 47;

/**
 * Compares two workspace-relative paths in ripgrep's `--sort=path` order: a depth-first walk
 * with each directory's entries sorted by the bytes of their names. That is a comparison
 * component by component, i.e. byte order with `/` below every other byte; UTF-16 code units are
 * remapped so the result is the UTF-8 byte order (surrogate pairs after U+E000..U+FFFF).
 * Used to put the output of an unsorted (parallel) ripgrep run into the order a sorted run gives.
 */
export function comparePathOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    let x = a.charCodeAt(index);
    let y = b.charCodeAt(index);
    if (x === y) continue;
    if (x === SLASH) return -1;
    if (y === SLASH) return 1;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}
