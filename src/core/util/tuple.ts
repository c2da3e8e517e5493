/** `N` items of `T`, as a tuple type when `N` is a literal number (`Tuple<string, 3>` is `[string, string, string]`). */
export type Tuple<T, N extends number, Acc extends T[] = []> = number extends N
  ? T[]
  : Acc['length'] extends N
    ? Acc
    : Tuple<T, N, [...Acc, T]>;

/**
 * Whether `items` holds exactly `length` items. It narrows `items` to a tuple, so a row split into
 * fields is checked once and each field read without a check of its own.
 */
export function hasLength<T, N extends number>(items: T[], length: N): items is Tuple<T, N> {
  return items.length === length;
}
