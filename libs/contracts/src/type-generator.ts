/**
 * Turns Avro schemas into TypeScript declarations, so event types are derived from schemas/*.avsc and never
 * written twice. Used by scripts/generate-types.ts and by the test that keeps src/generated in step.
 */
type Avro = string | Avro[] | { [key: string]: unknown };

export function generateTypeScript(schemas: Record<string, unknown>[]): string {
  const emitted = new Map<string, string>();

  const typeOf = (schema: Avro): string => {
    if (typeof schema === 'string') {
      switch (schema) {
        case 'null': return 'null';
        case 'boolean': return 'boolean';
        case 'int': case 'long': case 'float': case 'double': return 'number';
        case 'bytes': case 'fixed': return 'Buffer';
        case 'string': return 'string';
        default: return shortName(schema);
      }
    }
    if (Array.isArray(schema)) return schema.map(typeOf).join(' | ');
    const type = schema['type'] as Avro;
    if (type === 'record') return declareRecord(schema);
    if (type === 'enum') return declareEnum(schema);
    if (type === 'array') return `Array<${typeOf(schema['items'] as Avro)}>`;
    if (type === 'map') return `Record<string, ${typeOf(schema['values'] as Avro)}>`;
    return typeOf(type);
  };

  const declareRecord = (schema: Record<string, unknown>): string => {
    const name = shortName(schema['name'] as string);
    if (emitted.has(name)) return name;
    emitted.set(name, ''); // reserve, for recursive references
    const fields = (schema['fields'] as Array<Record<string, unknown>>).map((field) => {
      const doc = field['doc'] ? `  /** ${String(field['doc'])} */\n` : '';
      return `${doc}  ${String(field['name'])}: ${typeOf(field['type'] as Avro)};`;
    });
    const doc = schema['doc'] ? `/** ${String(schema['doc'])} */\n` : '';
    emitted.set(name, `${doc}export interface ${name} {\n${fields.join('\n')}\n}`);
    return name;
  };

  const declareEnum = (schema: Record<string, unknown>): string => {
    const name = shortName(schema['name'] as string);
    if (emitted.has(name)) return name;
    const symbols = schema['symbols'] as string[];
    emitted.set(name, `export const ${name}Values = [${symbols.map((s) => `'${s}'`).join(', ')}] as const;\nexport type ${name} = (typeof ${name}Values)[number];`);
    return name;
  };

  for (const schema of schemas) typeOf(schema as Avro);
  const header = '// Generated from schemas/*/v<latest>.avsc by `npm run generate:types`. Do not edit by hand.\n/* eslint-disable */\n';
  return header + [...emitted.values()].join('\n\n') + '\n';
}

function shortName(fullName: string): string {
  return fullName.split('.').pop() as string;
}
