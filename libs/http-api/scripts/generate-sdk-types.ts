import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SDK_TYPES_FILE, sdkTypesSource } from '../src/openapi/sdk-types.js';

const target = fileURLToPath(SDK_TYPES_FILE);
writeFileSync(target, await sdkTypesSource());
console.log(`wrote ${target} from the OpenAPI document`);
