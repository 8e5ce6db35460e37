/** The one way the benchmarks call the API: Bearer key, the end user's header, a JSON body when there is one. */
export function apiRequest(apiKey: string, method: 'GET' | 'POST', endUserId: string | null, body?: unknown): RequestInit {
  return {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(endUserId ? { 'x-end-user-id': endUserId } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}
