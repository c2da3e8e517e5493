/** A parsed JSON object, as opposed to an array, a primitive or null. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The object without its null-valued keys: JSON `null` is "not sent" on every route, as the inbox
 * (and JSON-LD) has it, so `{"secret": null}` is `{}` rather than a secret of the wrong type.
 */
export function withoutNulls(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

/**
 * Visits every key of every object inside `json` with its path (`object.consignor[0].name`), walking
 * without recursion so no depth can overflow the stack; `visit` answers whether to walk into the value.
 */
export function walkEntries(json: unknown, visit: (key: string, value: unknown, at: string) => boolean): void {
  const stack: { value: unknown; path: string }[] = [{ value: json, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: `${path}[${i}]` }));
      continue;
    }
    if (!isObject(value)) continue;
    for (const [key, v] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (visit(key, v, at)) stack.push({ value: v, path: at });
    }
  }
}
