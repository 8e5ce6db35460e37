/**
 * Opens each resource on first use and remembers it, so a process opens only what its roles need (the search app
 * never connects a Kafka consumer, a stage worker never loads the embedding model unless it embeds), and closes
 * them in reverse order of opening.
 */
export class Resources {
  private readonly opened: Array<{ name: string; close: () => Promise<void> }> = [];
  private readonly pending = new Map<string, Promise<unknown>>();

  get<T>(name: string, open: () => Promise<T>, close: (resource: T) => Promise<void>): Promise<T> {
    let resource = this.pending.get(name) as Promise<T> | undefined;
    if (!resource) {
      resource = open().then((value) => {
        this.opened.push({ name, close: () => close(value) });
        return value;
      });
      // A failed open is not remembered: the next caller tries again (an engine may come up later).
      resource.catch(() => this.pending.delete(name));
      this.pending.set(name, resource);
    }
    return resource;
  }

  async closeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const { close } of this.opened.splice(0).reverse()) {
      await close().catch((error: unknown) => errors.push(error));
    }
    this.pending.clear();
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} resources failed to close`);
  }
}
