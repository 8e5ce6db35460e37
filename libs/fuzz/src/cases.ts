import { seededRandom } from '@memory/platform';
import type { WireRequest } from './http-wire.js';
import { fillPath, type Route } from './routes.js';

/** A seeded source of choices; one per request, so request `index` of seed `seed` is the same on every run. */
export interface Rand {
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function randFor(seed: number, index: number): Rand {
  const next = seededRandom((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const int = (below: number) => Math.floor(next() * below);
  return { int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}

export interface CaseContext {
  route: Route;
  rand: Rand;
  apiKey: string;
  /** The end user every fuzz request acts as (its memories are the fuzz's own). */
  endUser: string;
}

/** One hostile request and what it is meant to break; `cut` requests expect no answer. */
export interface HostileRequest {
  kind: string;
  request: WireRequest;
}

type Maker = (ctx: CaseContext) => WireRequest | null;

/** The smallest valid PNG (1x1, grey): a real image, to send where an image does not belong. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==', 'base64');
/** A one-page PDF with a line of text; truncated copies of it stop mid-object. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n' +
    '4 0 obj<</Length 44>>stream\nBT /F1 12 Tf 20 100 Td (fuzz page) Tj ET\nendstream endobj\n' +
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** Ids a client might send by mistake or in malice, percent-encoded as they would travel in a path. */
const HOSTILE_IDS = [
  'x'.repeat(5_000),
  'job_1700000000000_fuzz-user'.padEnd(300, '9'),
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '..',
  '.',
  '%00',
  'job%00_1',
  '%0d%0aSet-Cookie:%20x=1',
  '%1b%5b31m',
  '%ff%fe',
  '%E0%A4%A',
  '%zz',
  '%',
  '%C0%AF',
  '%ED%A0%80',
  '%F0%9F%92%A9',
  'a%20b',
  'mem_job_1_fuzz-user_0%3Bdrop',
  encodeURIComponent('{"$gt":""}'),
  encodeURIComponent('*'),
  encodeURIComponent('mem_*'),
  '__proto__',
  'constructor',
  'img_job_99999999999999999999_fuzz-user',
];

/** A plausible id for a path parameter, so the rest of the request is what is hostile. */
function plausibleId(name: string): string {
  if (name === 'endUserId') return 'fuzz-user';
  if (name === 'webhookId') return 'wh_fuzzfuzzfuzzfuzzfuzz';
  if (name === 'deliveryId') return 'msg_fuzz';
  if (name === 'id') return 'mem_job_1700000000000_fuzz-user_0';
  return 'job_1700000000000_fuzz-user';
}

/** A body the route would accept, or close to it: the starting point the kinds below spoil. */
function plausibleJson(route: Route, rand: Rand): Record<string, unknown> {
  const text = rand.pick(['I met Ana at the lake on Tuesday', 'remind me to call the dentist tomorrow at 5pm', 'the blue notebook is in the attic']);
  if (route.path === '/v1/memory') return { source: { type: 'text', content: text } };
  if (route.path === '/v1/memory/image') return { imageData: PNG.toString('base64') };
  if (route.path === '/v1/search') return rand.chance(0.8) ? { query: text, options: { limit: 5 } } : { queryImage: PNG.toString('base64') };
  if (route.path === '/v1/memories/search') return { query: text, mode: rand.pick(['factual', 'conceptual', 'hybrid']) };
  if (route.path === '/v1/webhooks') return { url: 'https://example.com/hook', events: ['job.completed'] };
  if (route.method === 'PATCH') return { content: text };
  return {};
}

function baseHeaders(ctx: CaseContext, contentType?: string): Array<[string, string | Buffer]> {
  const headers: Array<[string, string | Buffer]> = [];
  if (ctx.route.auth) headers.push(['authorization', `Bearer ${ctx.apiKey}`]);
  headers.push(['x-end-user-id', ctx.endUser]);
  if (contentType) headers.push(['content-type', contentType]);
  return headers;
}

function target(ctx: CaseContext, id?: (name: string) => string): string {
  const path = fillPath(ctx.route, id ?? plausibleId);
  if (ctx.route.path === '/v1/memories' && ctx.route.method === 'DELETE') return `${path}?job_id=job_1700000000000_fuzz-user`;
  return path;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const takesJson = (route: Route) => route.bodyType === 'application/json';
const takesBody = (route: Route) => route.bodyType !== null;

/** A JSON request to the route with this body and content type (the route's own when not given). */
function withBody(ctx: CaseContext, body: Buffer, contentType = ctx.route.bodyType ?? 'application/json'): WireRequest {
  return { method: ctx.route.method, target: target(ctx), headers: baseHeaders(ctx, contentType), body };
}

function multipart(boundary: string, parts: Array<{ name: string; filename?: string; type?: string; data: Buffer }>, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`, 'latin1'));
    chunks.push(part.data, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/**
 * The kinds of hostile request, each a function of the route and the request's random choices. A kind that does not
 * apply to a route (no body, no path id) returns null and another is drawn.
 */
export const KINDS: Record<string, Maker> = {
  'wrong-content-type': (ctx) => {
    if (!takesBody(ctx.route)) return null;
    const type = ctx.rand.pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'a/b/c;;;=', 'image/png', 'multipart/form-data', 'application/pdf', '*/*', 'application/jsonx', 'application/json, text/html']);
    return withBody(ctx, takesJson(ctx.route) ? json(plausibleJson(ctx.route, ctx.rand)) : PDF, type);
  },
  'missing-content-type': (ctx) => {
    if (!takesBody(ctx.route)) return null;
    const request = withBody(ctx, takesJson(ctx.route) ? json(plausibleJson(ctx.route, ctx.rand)) : PDF);
    request.headers = request.headers.filter(([name]) => name !== 'content-type');
    return request;
  },
  'invalid-json': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const valid = JSON.stringify(plausibleJson(ctx.route, ctx.rand));
    const body = ctx.rand.pick([valid.slice(0, Math.max(1, ctx.rand.int(valid.length))), `${valid},`, `'${valid}'`, valid.replace(/"/g, ''), '', 'null', 'true', '42', '"a string"', '[]', '{', '}', '\u0000', 'NaN', '{"a":undefined}', '{"a":1,}', '/* c */{}', '\ufeff{}']);
    return withBody(ctx, Buffer.from(body));
  },
  'invalid-utf8': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const bad = ctx.rand.pick([[0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xe2, 0x82]]);
    const text = JSON.stringify(plausibleJson(ctx.route, ctx.rand));
    const at = text.indexOf('"', text.indexOf(':') + 1) + 1 || 2;
    return withBody(ctx, Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad), Buffer.from(text.slice(at))]));
  },
  'lone-surrogate': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const surrogate = ctx.rand.pick(['\\ud800', '\\udfff', '\\ud83d', 'a\\udc00b', '\\u0000', '\\ud800\\ud800']);
    const text = JSON.stringify(plausibleJson(ctx.route, ctx.rand)).replace(/"(I met|remind|the blue)/, `"${surrogate}$1`);
    const body = text.includes(surrogate) ? text : `{"query":"${surrogate}","content":"${surrogate}","source":{"type":"text","content":"${surrogate}"}}`;
    return withBody(ctx, Buffer.from(body));
  },
  'huge-numbers': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const n = ctx.rand.pick(['1e308', '1e309', '-1e400', '123456789012345678901234567890', '0.0000000000000000000000001', '-0', '9007199254740993', '1' + '0'.repeat(5000)]);
    const body = ctx.rand.pick([
      `{"query":"lake","options":{"limit":${n}}}`,
      `{"source":{"type":"text","content":"x","timestamp":${n}},"metadata":{"n":${n}}}`,
      `{"query":"lake","mode":"factual","limit":${n},"filters":{"created_at":{"gte":${n}}}}`,
      `{"content":"x","metadata":{"n":${n}},"timestamp":${n}}`,
      `{"imageData":${n}}`,
      `{"url":${n},"events":[${n}]}`,
      `[${n}]`,
    ]);
    return withBody(ctx, Buffer.from(body));
  },
  'deep-json': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const depth = ctx.rand.pick([100, 1_000, 10_000, 60_000]);
    const deep = ctx.rand.chance(0.5) ? nested(depth, '[', ']', '1') : nested(depth, '{"a":', '}', '1');
    const body = ctx.rand.pick([deep, `{"source":{"type":"text","content":"x"},"metadata":${deep}}`, `{"query":"x","filters":${deep}}`, `{"query":"x","filters":{"any":${nested(Math.min(depth, 5_000), '[{"any":', '}]', '[]')}}}`]);
    return withBody(ctx, Buffer.from(body));
  },
  'wide-json': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const width = ctx.rand.pick([1_000, 10_000, 40_000]);
    const keys = Array.from({ length: width }, (_, i) => `"k${i}":${i}`).join(',');
    const items = Array.from({ length: width }, (_, i) => `"v${i}"`).join(',');
    const body = ctx.rand.pick([`{${keys}}`, `{"source":{"type":"text","content":"x"},"metadata":{${keys}}}`, `{"query":"x","filters":{"memory_type":[${items}],"job_id":[${items}]}}`, `[${items}]`, `{"content":"x","metadata":{${keys}}}`]);
    return withBody(ctx, Buffer.from(body));
  },
  'duplicate-keys': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const body = ctx.rand.pick([
      '{"source":{"type":"text","content":"a"},"source":{"type":"image"}}',
      '{"source":{"type":"text","content":"a","content":{"x":1}}}',
      '{"query":"a","query":["b"],"mode":"factual","mode":7}',
      '{"__proto__":{"polluted":1},"source":{"type":"text","content":"a"}}',
      '{"constructor":{"prototype":{"x":1}},"query":"a"}',
      '{"content":"a","content":null}',
      '{"imageData":"AAAA","imageData":{"a":1}}',
      '{"url":"https://example.com/a","url":"http://127.0.0.1/","events":["job.completed"]}',
    ]);
    return withBody(ctx, Buffer.from(body));
  },
  'oversized-body': (ctx) => {
    if (!takesBody(ctx.route)) return null;
    const size = ctx.rand.pick([300 * 1024, 2 * 1024 * 1024, 20 * 1024 * 1024]);
    const declared = ctx.rand.chance(0.5);
    if (declared) {
      // Declares a huge body and sends a little of it: the answer must come from the declared length alone.
      const request = withBody(ctx, Buffer.from('{"query":"'));
      request.headers.push(['content-length', String(ctx.rand.pick([size, 2 ** 40, 2 ** 53 + 1]))]);
      request.cut = { afterBytes: 4_096, how: 'end' };
      return request;
    }
    const filler = Buffer.alloc(Math.min(size, 2 * 1024 * 1024), 'a');
    return withBody(ctx, takesJson(ctx.route) ? Buffer.concat([Buffer.from('{"query":"'), filler, Buffer.from('"}')]) : multipart('fz', [{ name: 'file', filename: 'big.pdf', type: 'application/pdf', data: Buffer.concat([PDF, filler]) }]), takesJson(ctx.route) ? undefined : 'multipart/form-data; boundary=fz');
  },
  'stops-mid-stream': (ctx) => {
    const body = takesJson(ctx.route) ? json(plausibleJson(ctx.route, ctx.rand)) : multipart('fz', [{ name: 'file', filename: 'a.pdf', type: 'application/pdf', data: PDF }]);
    const request = takesBody(ctx.route) ? withBody(ctx, body, takesJson(ctx.route) ? undefined : 'multipart/form-data; boundary=fz') : { method: ctx.route.method, target: target(ctx), headers: baseHeaders(ctx) };
    const full = (request.body?.length ?? 0) + 200;
    request.cut = { afterBytes: ctx.rand.int(full), how: ctx.rand.pick(['end', 'destroy'] as const) };
    return request;
  },
  'truncated-multipart': (ctx) => {
    if (ctx.route.bodyType !== 'multipart/form-data') return null;
    const variant = ctx.rand.int(9);
    const boundary = 'fz' + ctx.rand.int(1e6);
    const file = { name: 'file', filename: 'a.pdf', type: 'application/pdf', data: PDF };
    const bodies: Array<[Buffer, string]> = [
      [multipart(boundary, [file], false), `multipart/form-data; boundary=${boundary}`],
      [multipart(boundary, [{ ...file, data: PDF.subarray(0, ctx.rand.int(PDF.length)) }]), `multipart/form-data; boundary=${boundary}`],
      [multipart(boundary, [file]), 'multipart/form-data'],
      [multipart(boundary, [file]), `multipart/form-data; boundary=other`],
      [multipart(boundary, [{ ...file, name: 'notfile' }]), `multipart/form-data; boundary=${boundary}`],
      [multipart(boundary, [file, file, file]), `multipart/form-data; boundary=${boundary}`],
      [multipart(boundary, [{ name: 'metadata', data: Buffer.from('{"a":') }, file]), `multipart/form-data; boundary=${boundary}`],
      [Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${'a'.repeat(20_000)}.pdf"\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`), `multipart/form-data; boundary=${boundary}`],
      [multipart(boundary, Array.from({ length: 2_000 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') }))), `multipart/form-data; boundary=${boundary}`],
    ];
    const [body, type] = bodies[variant]!;
    return withBody(ctx, body, type);
  },
  'valid-image-wrong-type': (ctx) => {
    if (!takesBody(ctx.route)) return null;
    if (ctx.route.bodyType === 'multipart/form-data') {
      return withBody(ctx, multipart('fz', [{ name: 'file', filename: 'photo.pdf', type: ctx.rand.pick(['application/pdf', 'image/png']), data: PNG }]), 'multipart/form-data; boundary=fz');
    }
    return ctx.rand.pick([
      () => withBody(ctx, PNG, 'application/json'),
      () => withBody(ctx, PNG, 'image/png'),
      () => withBody(ctx, json({ imageData: `data:application/pdf;base64,${PDF.toString('base64')}` })),
      () => withBody(ctx, json({ imageData: PDF.toString('base64'), queryImage: PDF.toString('base64') })),
      () => withBody(ctx, json({ source: { type: 'image', content: PNG.toString('base64') } })),
    ])();
  },
  'bad-base64': (ctx) => {
    if (!takesJson(ctx.route)) return null;
    const data = ctx.rand.pick(['!!!notbase64', 'data:image/png;base64,@@@', 'abc=d', '====', 'QUJD\u0000REVG', ' '.repeat(10_000), 'data:;base64,', 'data:image/png,iVBORw0KGgo', 'A', 'AA=', PNG.toString('base64').slice(0, 30), PNG.toString('base64url'), 'data:image/png;base64,' + PNG.toString('base64') + '=====']);
    return withBody(ctx, json(ctx.route.path.includes('search') ? { queryImage: data } : { imageData: data }));
  },
  'header-flood': (ctx) => {
    const request: WireRequest = { method: ctx.route.method, target: target(ctx), headers: baseHeaders(ctx) };
    const variant = ctx.rand.int(4);
    if (variant === 0) for (let i = 0; i < 40; i++) request.headers.push([`x-flood-${i}`, 'f'.repeat(1_000)]);
    if (variant === 1) request.headers.push(['x-one-huge', 'h'.repeat(ctx.rand.pick([17_000, 70_000, 300_000]))]);
    if (variant === 2) for (let i = 0; i < 3_000; i++) request.headers.push(['x-a', 'b']);
    if (variant === 3) request.headers.push(['cookie', 'c=' + 'c'.repeat(20_000)]);
    return request;
  },
  'hostile-id': (ctx) => {
    if (ctx.route.pathParams.length === 0) return null;
    const hostile = ctx.rand.pick(HOSTILE_IDS);
    const which = ctx.rand.pick(ctx.route.pathParams);
    const request: WireRequest = { method: ctx.route.method, target: target(ctx, (name) => (name === which ? hostile : plausibleId(name))), headers: baseHeaders(ctx, ctx.route.bodyType ?? undefined) };
    if (takesJson(ctx.route)) request.body = json(plausibleJson(ctx.route, ctx.rand));
    return request;
  },
  'hostile-query': (ctx) => {
    const query = ctx.rand.pick([
      'waitMs=1e99', 'waitMs=-1', 'waitMs=30001', 'waitMs=&waitMs=5', 'limit=-1', 'limit=1e9', 'limit=abc', 'cursor=%%%%', 'cursor=' + 'A'.repeat(10_000),
      'job_id=' + 'x'.repeat(5_000), 'job_id=../../etc', 'job_id[]=a&job_id[]=b', '__proto__[x]=1', 'a=%E0%A4%A', 'memory_type=' + 'm,'.repeat(500),
      'created_after=notadate', 'created_after=99999-99-99', 'metadata.x=1&metadata.x=2', 'event_after=1e400', 'q=%00%0a',
    ]);
    return { method: ctx.route.method, target: `${target(ctx)}${target(ctx).includes('?') ? '&' : '?'}${query}`, headers: baseHeaders(ctx, ctx.route.bodyType ?? undefined), ...(takesJson(ctx.route) ? { body: json(plausibleJson(ctx.route, ctx.rand)) } : {}) };
  },
  'hostile-headers': (ctx) => {
    const request: WireRequest = { method: ctx.route.method, target: target(ctx), headers: [], ...(takesJson(ctx.route) ? { body: json(plausibleJson(ctx.route, ctx.rand)) } : {}) };
    const type: Array<[string, string | Buffer]> = ctx.route.bodyType ? [['content-type', ctx.route.bodyType]] : [];
    const variant = ctx.rand.int(12);
    const key: Array<[string, string | Buffer]> = [['authorization', `Bearer ${ctx.apiKey}`]];
    const user: Array<[string, string | Buffer]> = [['x-end-user-id', ctx.endUser]];
    const sets: Array<Array<[string, string | Buffer]>> = [
      [['authorization', 'Bearer ' + 'k'.repeat(8_000)], ...user],
      [['authorization', 'Basic Zm9vOmJhcg=='], ...user],
      [['authorization', Buffer.from([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xff, 0xfe])], ...user],
      [...key, ['x-end-user-id', 'u'.repeat(5_000)]],
      [...key, ['x-end-user-id', Buffer.from([0x75, 0xc3, 0xa9, 0xff])]],
      [...key, ['x-end-user-id', '../../admin']],
      [...key, ...user, ['x-end-user-timezone', 'Mars/Olympus_Mons']],
      [...key, ...user, ['x-end-user-timezone', 'x'.repeat(5_000)]],
      [...key, ...user, ['idempotency-key', 'k'.repeat(1_000)]],
      [...key, ...user, ['idempotency-key', Buffer.from([0x01, 0x02, 0x7f])]],
      [...key, ...user, ['x-end-user-id', 'second-user']],
      [...key, ...user, ['content-encoding', ctx.rand.pick(['gzip', 'deflate', 'br', 'identity, gzip', 'x-unknown'])]],
    ];
    request.headers = [...sets[variant]!, ...type];
    return request;
  },
  'malformed-http': (ctx) => {
    const path = target(ctx);
    const variant = ctx.rand.int(9);
    const auth: Array<[string, string | Buffer]> = baseHeaders(ctx, ctx.route.bodyType ?? undefined);
    if (variant === 0) return { method: ctx.route.method, target: path, headers: [...auth, ['transfer-encoding', 'chunked']], body: Buffer.from('zz\r\nnot a chunk\r\n0\r\n\r\n') };
    if (variant === 1) return { method: ctx.route.method, target: path, headers: [...auth, ['transfer-encoding', 'chunked'], ['content-length', '5']], body: Buffer.from('5\r\nhello\r\n0\r\n\r\n') };
    if (variant === 2) return { method: ctx.route.method, target: path, headers: [...auth, ['content-length', '5'], ['content-length', '7']], body: Buffer.from('{}') };
    if (variant === 3) return { method: ctx.route.method, target: path, headers: [...auth, ['content-length', '-1']], body: Buffer.from('{}') };
    if (variant === 4) return { method: ctx.route.method, target: path.replace(/\//g, ' /'), headers: auth };
    if (variant === 5) return { method: 'GET', target: path, headers: [...auth, ['bad header name', 'x']] };
    if (variant === 7) return { method: ctx.route.method, target: path, headers: [...auth, ['connection', 'upgrade'], ['upgrade', ctx.rand.pick(['websocket', 'h2c', 'x'.repeat(100)])]] };
    if (variant === 6) return { method: ctx.route.method, target: path, headers: [...auth, ['expect', ctx.rand.pick(['100-continue', 'something-else', '200-ok'])]], body: Buffer.from('{}') };
    return { method: ctx.rand.pick(['PROPFIND', 'TRACE', 'CONNECT', 'FOO', 'OPTIONS']), target: path, headers: auth };
  },
};

export const KIND_NAMES = Object.keys(KINDS);

/** Request `index` of a run: its route in turn (every route gets its share), its kind drawn by the seed. */
export function hostileRequest(routes: Route[], index: number, seed: number, apiKey: string, endUser: string): HostileRequest {
  const route = routes[index % routes.length]!;
  const rand = randFor(seed, index);
  for (;;) {
    const kind = rand.pick(KIND_NAMES);
    const request = KINDS[kind]!({ route, rand, apiKey, endUser });
    if (request) return { kind, request };
  }
}
