import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Router } from 'express';
import { RequestError, type Logger } from '@memory/platform';
import { parseSearchFilters, searchConfig } from '@memory/search';
import { expressApp, type HttpApiDeps } from '../app.js';
import { createApiKeyRegistry } from '../auth.js';
import { validateIdempotencyKey } from '../idempotency.js';
import { validateListRequest } from '../list-request.js';
import { TEXT_INGEST_FAST_PATH } from '../text-ingest-fast-path.js';
import { validateEndUserId, validateImageIngest, validateImageSearch, validateTextIngest, validateUpdate } from '../validation.js';
import { HEADER_PARAMETERS, openApiDocument } from './document.js';
import { OPERATIONS } from './operations.js';

type Json = Record<string, unknown>;
const document = openApiDocument() as Json & { paths: Record<string, Record<string, Json>> };

// The published document is JSON Schema 2020-12 (OpenAPI 3.1): its components are checked as a client reads them.
const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addSchema({ ...document, $id: 'openapi' });
let lastErrors = '';
/** A compiled validator (compiled once: the filter schemas are large) that keeps its errors for the message. */
const checker = (validate: ReturnType<typeof ajv.compile>) => (value: unknown): boolean => {
  // The document has no $async schema, so every validator answers at once.
  const valid = validate(value) === true;
  lastErrors = ajv.errorsText(validate.errors);
  return valid;
};
const documented = (name: string) => checker(ajv.getSchema(`openapi#/components/schemas/${name}`)!);
const ofSchema = (schema: unknown) => checker(ajv.compile(schema as Json));

/** Whether a validator takes the value: a RequestError is a refusal, anything else a bug that fails the test. */
const validatorAccepts = (validate: (value: never) => unknown) => (value: unknown) => {
  try {
    validate(value as never);
    return true;
  } catch (error) {
    if (error instanceof RequestError && error.status < 500) return false;
    throw error;
  }
};

/** Each example is [value, whether the API takes it]: the document's schema and the route's validator must both agree. */
function agree(schemaAccepts: (value: unknown) => boolean, validate: (value: unknown) => boolean, examples: Array<[unknown, boolean]>) {
  for (const [value, accepted] of examples) {
    const shown = JSON.stringify(value)?.slice(0, 120);
    expect(validate(value), `validator on ${shown}`).to.equal(accepted);
    const schemaSays = schemaAccepts(value);
    expect(schemaSays, `schema on ${shown}: ${lastErrors}`).to.equal(accepted);
  }
}

const long = (length: number) => 'x'.repeat(length);
const text = (source: Json, rest: Json = {}) => ({ source: { type: 'text', ...source }, ...rest });
const metadataExamples = (wrap: (metadata: unknown) => unknown): Array<[unknown, boolean]> => [
  [wrap({ project: 'apollo', priority: 2, pinned: true }), true],
  [wrap(null), true],
  [wrap({}), true],
  [wrap([]), false],
  [wrap('apollo'), false],
  [wrap({ 'bad key': 1 }), false],
  [wrap({ nested: { a: 1 } }), false],
  [wrap({ list: [1] }), false],
  [wrap({ nothing: null }), false],
  [wrap({ long: long(513) }), false],
  [wrap({ long: long(512) }), true],
  [wrap(Object.fromEntries(Array.from({ length: 33 }, (_, at) => [`k${at}`, 1]))), false],
];

describe('the OpenAPI document and the validators read requests the same way', () => {
  it('POST /v1/memory: TextIngestRequest', () => {
    agree(documented('TextIngestRequest'), validatorAccepts(validateTextIngest), [
      [text({ content: 'hi' }), true],
      [text({ content: 'hi', timestamp: '2023-05-08T13:56:00Z' }, { userContext: 'diary' }), true],
      [text({ content: 'hi', timestamp: '2023-05-08' }), true],
      [text({ content: 'hi', timestamp: '2023-05-08 13:56+02:00' }), true],
      [text({ content: 'hi', timestamp: null }, { userContext: null }), true],
      [text({ content: 'hi' }, { userContext: '' }), true],
      [null, false],
      [[], false],
      [{}, false],
      [{ source: { type: 'image', content: 'hi' } }, false],
      [text({}), false],
      [text({ content: '' }), false],
      [text({ content: '   ' }), false],
      [text({ content: 3 }), false],
      [text({ content: long(32_000) }), true],
      [text({ content: long(32_001) }), false],
      [text({ content: 'hi', timestamp: 'yesterday' }), false],
      [text({ content: 'hi', timestamp: 1_700_000_000_000 }), false],
      [text({ content: 'hi' }, { userContext: 7 }), false],
      [text({ content: 'hi' }, { userContext: long(4_001) }), false],
      ...metadataExamples((metadata) => text({ content: 'hi' }, { metadata })),
    ]);
  });

  it('PATCH /v1/memories/{id}: UpdateRequest', () => {
    agree(documented('UpdateRequest'), validatorAccepts(validateUpdate), [
      [{ content: 'new' }, true],
      [{ userContext: null }, true],
      [{ metadata: {} }, true],
      [{ content: 'new', timestamp: '2024-01-02' }, true],
      [{}, false],
      [{ timestamp: '2024-01-02' }, false],
      [{ content: 'new', source: {} }, false],
      [{ content: '' }, false],
      [{ content: 'new', timestamp: 'soon' }, false],
      [[], false],
      ...metadataExamples((metadata) => ({ content: 'new', metadata })),
    ]);
  });

  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const base64Examples = (wrap: (data: unknown) => unknown): Array<[unknown, boolean]> => [
    [wrap(png), true],
    [wrap(`data:image/png;base64,${png}`), true],
    [wrap(`${png.slice(0, 40)}\n${png.slice(40)}`), true],
    [wrap(''), false],
    [wrap('   '), false],
    [wrap('not base64!'), false],
    [wrap(42), false],
    [wrap(undefined), false],
  ];

  it('POST /v1/memory/image: ImageIngestRequest', () => {
    agree(documented('ImageIngestRequest'), validatorAccepts(validateImageIngest), [
      ...base64Examples((imageData) => ({ imageData })),
      [{ imageData: png, userContext: 'holiday' }, true],
      [{ imageData: png, userContext: long(4_001) }, false],
      ...metadataExamples((metadata) => ({ imageData: png, metadata })),
    ]);
  });

  const scope = { tenantId: 't', endUserId: 'u' };
  const textSearch = validatorAccepts((body) => searchConfig(body, { scope, route: 'search' }));
  const imageSearch = validatorAccepts(validateImageSearch);
  const filterExamples = (wrap: (filters: unknown) => unknown): Array<[unknown, boolean]> => [
    [wrap({ memory_type: 'fact', metadata: { project: 'apollo', priority: { in: [1, 2] } } }), true],
    [wrap({ memory_type: ['fact', 'plan'], job_id: 'job_1', created_after: '2024-03-01', created_before: 1_800_000_000_000 }), true],
    [wrap({ any: [{ memory_type: 'fact' }, { not: { job_id: 'job_2' } }] }), true],
    [wrap(null), true],
    [wrap({ colour: 'red' }), false],
    [wrap('fact'), false],
    [wrap({ memory_type: [] }), false],
    [wrap({ memory_type: '' }), false],
    [wrap({ created_after: 'last tuesday' }), false],
    [wrap({ metadata: {} }), false],
    [wrap({ metadata: { project: { in: [] } } }), false],
    [wrap({ metadata: { project: { eq: 'x' } } }), false],
    [wrap({ any: [] }), false],
  ];

  it('POST /v1/search: SearchRequest (text or image)', () => {
    const validate = (body: unknown) => (body !== null && typeof body === 'object' && 'queryImage' in body ? imageSearch(body) : textSearch(body));
    agree(documented('SearchRequest'), validate, [
      [{ query: 'horror movies' }, true],
      [{ query: 'horror movies', strategy: 'entity_anchor', useDynamicScoring: false, options: { limit: 10, explain: true } }, true],
      [{ query: 'x', strategy: null }, true],
      [{ query: '' }, false],
      [{ query: long(2_001) }, false],
      [{ query: 'x', strategy: 'psychic' }, false],
      [{ query: 'x', options: { limit: 0 } }, false],
      [{ query: 'x', options: { limit: 101 } }, false],
      [{ query: 'x', options: { limit: 2.5 } }, false],
      [{ query: 'x', options: { explain: 'yes' } }, false],
      [{ query: 'x', useDynamicScoring: 'no' }, false],
      [{ query: 'x', options: [] }, false],
      [{}, false],
      ...base64Examples((queryImage) => ({ queryImage })),
      [{ queryImage: png, options: { limit: 3 } }, true],
      [{ queryImage: png, options: { limit: 0 } }, false],
      ...filterExamples((filters) => ({ query: 'x', filters })),
      ...filterExamples((filters) => ({ queryImage: png, filters })),
    ]);
  });

  it('POST /v1/memories/search: ModeSearchRequest', () => {
    agree(documented('ModeSearchRequest'), validatorAccepts((body) => searchConfig(body, { scope, route: 'mode_search' })), [
      [{ query: 'x', mode: 'factual' }, true],
      [{ query: 'x', mode: 'hybrid', options: { limit: 100 } }, true],
      [{ query: 'x' }, false],
      [{ query: 'x', mode: 'vibes' }, false],
      [{ mode: 'factual' }, false],
      ...filterExamples((filters) => ({ query: 'x', mode: 'conceptual', filters })),
    ]);
  });

  it('search filters nest at most three levels in both', () => {
    const deep = { not: { not: { memory_type: 'fact' } } };
    agree(documented('SearchFilters'), validatorAccepts(parseSearchFilters), [
      [deep, true],
      [{ not: deep }, false],
    ]);
  });

  it('GET /v1/memories: the query parameters', () => {
    const list = OPERATIONS.find((op) => op.method === 'get' && op.path === '/v1/memories')!;
    const strings = Object.fromEntries(Object.entries(list.query!).map(([name, { schema }]) => [name, schema]));
    // Query values arrive as strings: the documented integer limit is read from its digits, as a client sends it.
    const coerce = (query: Record<string, string>) => Object.fromEntries(Object.entries(query).map(([name, value]) => [name, strings[name]?.['type'] === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value]));
    const schema = ofSchema({ type: 'object', properties: strings, patternProperties: { '^metadata\\.': { type: 'string' } }, additionalProperties: false });
    agree((query) => schema(coerce(query as Record<string, string>)), validatorAccepts(validateListRequest), [
      [{}, true],
      [{ limit: '1' }, true],
      [{ limit: '100' }, true],
      [{ limit: '0' }, false],
      [{ limit: '101' }, false],
      [{ limit: 'ten' }, false],
      [{ job_id: 'job_1', memory_type: 'fact,plan', 'metadata.project': 'apollo' }, true],
      [{ job_id: '' }, false],
      [{ job_id: long(257) }, false],
      [{ colour: 'red' }, false],
    ]);
  });

  it('the headers: x-end-user-id and Idempotency-Key', () => {
    agree(ofSchema(HEADER_PARAMETERS.EndUserId.schema), validatorAccepts(validateEndUserId), [
      ['alice', true],
      ['user:42@acme.example+test', true],
      [long(128), true],
      [long(129), false],
      ['', false],
      ['al ice', false],
      ['ålice', false],
    ]);
    agree(ofSchema(HEADER_PARAMETERS.IdempotencyKey.schema), validatorAccepts(validateIdempotencyKey), [
      ['8a1d2c3e-0000-4000-8000-000000000000', true],
      [long(255), true],
      [long(256), false],
      ['', false],
      ['naïve', false],
    ]);
  });
});

describe('the OpenAPI document names every route the service answers, and only those', () => {
  interface Layer {
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  }

  /** METHOD /path pairs of an Express router's stack, nested routers included, in the document's path form. */
  function routesOf(stack: Layer[]): string[] {
    return stack.flatMap((layer) => {
      if (layer.route) {
        const path = layer.route.path.replace(/:(\w+)/g, '{$1}');
        return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
      }
      return layer.handle?.stack ? routesOf(layer.handle.stack) : [];
    });
  }

  const unused = {} as never;
  const logger = { error() {}, warn() {}, info() {}, debug() {}, child: () => logger } as unknown as Logger;
  const common: HttpApiDeps = {
    apiKeys: createApiKeyRegistry(new Map()),
    ingestion: unused,
    idempotency: unused,
    forgetting: unused,
    updating: unused,
    blobs: unused,
    jobs: unused,
    webhooks: unused,
    logger,
    readiness: async () => ({ ready: true, checks: {}, lag: {} }),
    metrics: true,
  };
  const documentedRoutes = Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();

  for (const [mode, search] of [
    ['memoryd (embedded)', { vectors: unused, embedder: unused, graph: unused, centroids: unused } as never],
    ['the edge (distributed), relaying search and reads', { proxyTo: ['http://127.0.0.1:1'] }],
  ] as const) {
    it(`in ${mode}`, () => {
      const app = expressApp({ ...common, search }) as unknown as { router: Router & { stack: Layer[] } };
      const served = new Set([...routesOf(app.router.stack), `${TEXT_INGEST_FAST_PATH.method} ${TEXT_INGEST_FAST_PATH.path}`]);
      expect([...served].sort()).to.deep.equal(documentedRoutes);
    });
  }
});
