import type { HttpMethod, RouteSpec } from './route.ts';

interface ParamRoute {
  segments: string[];
  /** Index -> parameter name for `{name}` segments. */
  names: (string | undefined)[];
  byMethod: Map<HttpMethod, RouteSpec>;
}

export type RouteMatch =
  | { kind: 'found'; route: RouteSpec; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Path router: static paths are one Map lookup; templated paths are matched segment by segment
 * among the templates with the same segment count. A known path with an unknown method is a 405
 * rather than a 404, so clients can tell a typo in the path from a wrong verb.
 */
export class Router {
  private readonly exact = new Map<string, Map<HttpMethod, RouteSpec>>();
  private readonly templated = new Map<number, ParamRoute[]>();
  readonly routes: RouteSpec[] = [];

  add(route: RouteSpec): void {
    this.routes.push(route);
    if (!route.path.includes('{')) {
      const byMethod = this.exact.get(route.path) ?? new Map<HttpMethod, RouteSpec>();
      if (byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      byMethod.set(route.method, route);
      this.exact.set(route.path, byMethod);
      return;
    }
    const segments = route.path.split('/');
    const names = segments.map((s) => (s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1) : undefined));
    const list = this.templated.get(segments.length) ?? [];
    let entry = list.find((r) => r.segments.join('/') === segments.join('/'));
    if (entry === undefined) {
      entry = { segments, names, byMethod: new Map() };
      list.push(entry);
      this.templated.set(segments.length, list);
    }
    if (entry.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    entry.byMethod.set(route.method, route);
  }

  match(method: string, path: string): RouteMatch {
    const exact = this.exact.get(path);
    if (exact !== undefined) {
      const route = exact.get(method as HttpMethod);
      return route !== undefined ? { kind: 'found', route, params: NO_PARAMS } : notAllowed(exact);
    }
    const segments = path.split('/');
    const candidates = this.templated.get(segments.length);
    if (candidates === undefined) return { kind: 'not_found' };
    for (const candidate of candidates) {
      const params = matchSegments(candidate, segments);
      if (params === undefined) continue;
      const route = candidate.byMethod.get(method as HttpMethod);
      return route !== undefined ? { kind: 'found', route, params } : notAllowed(candidate.byMethod);
    }
    return { kind: 'not_found' };
  }
}

function matchSegments(route: ParamRoute, segments: string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const name = route.names[i];
    const segment = segments[i]!;
    if (name === undefined) {
      if (segment !== route.segments[i]) return undefined;
    } else {
      if (segment === '') return undefined;
      params ??= {};
      try {
        params[name] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    }
  }
  return params ?? NO_PARAMS;
}

function notAllowed(byMethod: Map<HttpMethod, RouteSpec>): RouteMatch {
  return { kind: 'method_not_allowed', allowed: [...byMethod.keys()].map((m) => m.toUpperCase()) };
}
