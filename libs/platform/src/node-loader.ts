/**
 * The Node flags that run one of our scripts: a TypeScript source goes through tsx with our packages' `source`
 * export condition; compiled JavaScript runs as it is (the loader would cost it a thread and ~35 MB for nothing).
 */
export function loaderFlags(script: string): string[] {
  return /\.[cm]?ts$/.test(script) ? ['--conditions=source', '--import', 'tsx'] : [];
}
