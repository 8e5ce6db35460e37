/**
 * The first of `count` sorted positions for which `isBefore` is false (binary search): where a value goes in a sorted
 * sequence, given which positions sort before it.
 */
export function firstPositionNotBefore(count: number, isBefore: (position: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (isBefore(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
