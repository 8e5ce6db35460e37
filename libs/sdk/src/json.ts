/** JSON.parse without the throw: undefined for text that is not JSON, null for none. */
export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return undefined;
  }
}
