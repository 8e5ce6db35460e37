import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { SDK_TYPES_FILE, sdkTypesSource } from './sdk-types.js';

describe('the SDK types generated from the OpenAPI document', () => {
  it('are in step with the document (npm run generate:sdk-types writes them)', async function () {
    this.timeout(30_000);
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    expect(committed === await sdkTypesSource(), 'libs/sdk/src/generated/openapi-types.ts is stale: run npm run generate:sdk-types').to.equal(true);
  });
});
