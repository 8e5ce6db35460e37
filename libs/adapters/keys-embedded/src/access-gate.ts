/**
 * Many shared operations at once, or one exclusive operation alone: an exclusive one waits for the shared ones in
 * flight and holds back those that arrive meanwhile. Used to swap a file under a store while nothing reads it.
 */
export class AccessGate {
  private active = 0;
  private drained: (() => void) | null = null;
  private exclusiveTurn: Promise<void> = Promise.resolve();
  private blocked: Promise<void> | null = null;

  async shared<T>(operation: () => Promise<T>): Promise<T> {
    while (this.blocked) await this.blocked;
    this.active++;
    try {
      return await operation();
    } finally {
      if (--this.active === 0) this.drained?.();
    }
  }

  exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const turn = this.exclusiveTurn.then(async () => {
      let release!: () => void;
      this.blocked = new Promise<void>((resolve) => (release = resolve));
      try {
        if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
        this.drained = null;
        return await operation();
      } finally {
        this.blocked = null;
        release();
      }
    });
    this.exclusiveTurn = turn.then(() => undefined, () => undefined);
    return turn;
  }
}
