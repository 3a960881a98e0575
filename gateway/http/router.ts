import type { HttpMethod, RouteSpec } from './route.ts';

interface TemplateRoute {
  route: RouteSpec;
  /** Index -> parameter name for `{name}` segments, as this route spells them. */
  names: (string | undefined)[];
}

interface Template {
  /** Segments with parameters erased to `{}`: two templates of one shape are one path. */
  shape: string[];
  byMethod: Map<HttpMethod, TemplateRoute>;
}

export type RouteMatch =
  | { kind: 'found'; route: RouteSpec; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const PARAM = '{}';

/**
 * Path router: static paths are one Map lookup; templated paths are matched segment by segment
 * among the templates with the same segment count. A known path with an unknown method is a 405
 * rather than a 404, so clients can tell a typo in the path from a wrong verb.
 */
export class Router {
  private readonly exact = new Map<string, Map<HttpMethod, RouteSpec>>();
  private readonly templated = new Map<number, Template[]>();
  readonly routes: RouteSpec[] = [];

  add(route: RouteSpec): void {
    if (!route.path.includes('{')) {
      const byMethod = this.exact.get(route.path) ?? new Map<HttpMethod, RouteSpec>();
      if (byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      byMethod.set(route.method, route);
      this.exact.set(route.path, byMethod);
    } else {
      const segments = route.path.split('/');
      const names = segments.map((s) => (s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1) : undefined));
      const shape = segments.map((s, i) => (names[i] === undefined ? s : PARAM));
      const list = this.templated.get(segments.length) ?? [];
      let template = list.find((t) => t.shape.join('/') === shape.join('/'));
      if (template === undefined) {
        template = { shape, byMethod: new Map() };
        list.push(template);
        list.sort(moreSpecificFirst);
        this.templated.set(segments.length, list);
      }
      if (template.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      template.byMethod.set(route.method, { route, names });
    }
    this.routes.push(route);
  }

  /**
   * An exact path wins over templates for the methods it has; otherwise every template that
   * matches the path is tried, and 405 lists the methods of all of them.
   */
  match(method: string, path: string): RouteMatch {
    const exact = this.exact.get(path);
    const exactRoute = exact?.get(method as HttpMethod);
    if (exactRoute !== undefined) return { kind: 'found', route: exactRoute, params: NO_PARAMS };
    let allowed: Set<HttpMethod> | undefined = exact === undefined ? undefined : new Set(exact.keys());
    const segments = path.split('/');
    for (const template of this.templated.get(segments.length) ?? []) {
      if (!fits(template.shape, segments)) continue;
      const hit = template.byMethod.get(method as HttpMethod);
      if (hit !== undefined) {
        const params = paramsOf(hit.names, segments);
        if (params !== undefined) return { kind: 'found', route: hit.route, params };
        continue;
      }
      allowed ??= new Set();
      for (const m of template.byMethod.keys()) allowed.add(m);
    }
    if (allowed === undefined) return { kind: 'not_found' };
    return { kind: 'method_not_allowed', allowed: [...allowed].map((m) => m.toUpperCase()) };
  }
}

/**
 * Of two templates that fit one path, the one with a literal segment where the other has a
 * parameter, leftmost first, is tried first: `/v1/orders/rewards` is an order id, not a venue's
 * rewards (`/v1/{prediction_venue}/rewards`), whatever the order the routes were added in.
 */
function moreSpecificFirst(a: Template, b: Template): number {
  for (let i = 0; i < a.shape.length; i++) {
    const pa = a.shape[i] === PARAM;
    const pb = b.shape[i] === PARAM;
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

function fits(shape: string[], segments: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const expected = shape[i]!;
    if (expected === PARAM ? segments[i] === '' : segments[i] !== expected) return false;
  }
  return true;
}

/** Names and percent-decodes the parameters; undefined when one is not valid UTF-8 escaping. */
function paramsOf(names: (string | undefined)[], segments: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const name = names[i];
    if (name === undefined) continue;
    try {
      params[name] = decodeURIComponent(segments[i]!);
    } catch {
      return undefined;
    }
  }
  return params;
}
