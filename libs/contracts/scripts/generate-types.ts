import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS, latestSchema, type EventName } from '../src/catalog.js';
import { generateTypeScript } from '../src/type-generator.js';

const target = fileURLToPath(new URL('../src/generated/events.ts', import.meta.url));
const schemas = (Object.keys(EVENTS) as EventName[]).map((name) => latestSchema(name));
writeFileSync(target, generateTypeScript(schemas));
console.log(`wrote ${target} from ${schemas.length} schemas`);
