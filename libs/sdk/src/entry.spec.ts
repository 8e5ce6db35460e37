import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The modules a module imports, by relative path, followed through the whole graph from `entry`. */
function moduleGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const specifiers = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((match) => match[1]!);
    graph.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(fileURLToPath(new URL(specifier.replace(/\.js$/, '.ts'), `file://${file}`)));
    }
  };
  visit(fileURLToPath(new URL(entry, import.meta.url)));
  return graph;
}

describe('the SDK entry points', () => {
  it('@memory/sdk imports nothing but its own modules (no node: module, no package), so a browser can load it', () => {
    const graph = moduleGraph('./index.ts');
    expect(graph.size).to.be.above(5);
    for (const [file, specifiers] of graph) {
      expect(specifiers.filter((specifier) => !specifier.startsWith('.')), file).to.deep.equal([]);
    }
  });

  it('@memory/sdk/node adds the node: file helpers on top of it', () => {
    const graph = moduleGraph('./node.ts');
    const outside = [...graph.values()].flat().filter((specifier) => !specifier.startsWith('.'));
    expect(outside.sort()).to.deep.equal(['node:fs', 'node:fs/promises', 'node:stream']);
  });

  it('package.json exports both, each with its types and JavaScript', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.exports['.']).to.include({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.exports['./node']).to.include({ types: './dist/node.d.ts', default: './dist/node.js' });
    expect(pkg.dependencies ?? {}).to.deep.equal({});
  });
});
