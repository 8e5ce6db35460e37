/** A route of the service as its OpenAPI document describes it: what the fuzz aims at. */
export interface Route {
  method: string;
  /** The path template, e.g. /v1/jobs/{jobId}. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The request body's media type, when the route takes one. */
  bodyType: string | null;
  auth: boolean;
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of an OpenAPI 3 document, so a route added to the document is fuzzed without a change here. */
export function routesOf(document: unknown): Route[] {
  const doc = document as { paths?: Record<string, Json>; security?: unknown[] };
  if (!doc?.paths || typeof doc.paths !== 'object') throw new Error('the OpenAPI document has no paths');
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const parameters = (operation['parameters'] as Array<{ in?: string; name?: string }> | undefined) ?? [];
      const body = operation['requestBody'] as { content?: Json } | undefined;
      const security = (operation['security'] as unknown[] | undefined) ?? doc.security ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => String(p.name)),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => String(p.name)),
        bodyType: body?.content ? (Object.keys(body.content)[0] ?? null) : null,
        auth: security.length > 0,
      });
    }
  }
  return routes;
}

/** The path with each {param} replaced by the given (already encoded) value. */
export function fillPath(route: Route, value: (name: string) => string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));
}
