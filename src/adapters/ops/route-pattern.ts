import type { Express, Request } from 'express';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  matchers?: ((path: string) => unknown)[];
  handle?: { stack?: Layer[] };
}

/**
 * The route pattern a request belongs to (`/supply-chain/data-space/consignments/:id`), never the raw
 * path, so metrics and logs group by route and carry no ids. A request refused before its route ran
 * (a 401 from the authentication middleware) is matched against the routers' patterns without
 * touching their state; `(unmatched)` when no route would take it.
 */
export function routePattern(app: Express, req: Request): string {
  if (req.route?.path !== undefined) return String(req.route.path);
  const stack = (app as unknown as { router?: { stack: Layer[] } }).router?.stack ?? [];
  return find(stack, req.method.toLowerCase(), req.path) ?? '(unmatched)';
}

function find(stack: Layer[], method: string, path: string): string | undefined {
  for (const layer of stack) {
    // The node mounts its routers at '/', so a nested router sees the same path.
    if (layer.handle?.stack) {
      const inner = find(layer.handle.stack, method, path);
      if (inner) return inner;
      continue;
    }
    if (!layer.route || !layer.matchers?.some((match) => matches(match, path))) continue;
    if (layer.route.methods[method] || layer.route.methods._all || (method === 'head' && layer.route.methods.get)) return layer.route.path;
  }
  return undefined;
}

/** A matcher decodes the path's parameters and throws on a malformed escape (%ZZ): no match, never a crash. */
function matches(match: (path: string) => unknown, path: string): boolean {
  try {
    return Boolean(match(path));
  } catch {
    return false;
  }
}
