import { expect } from 'chai';
import { routeTemplate } from './request-envelope.js';

describe('routeTemplate (the route label of the HTTP metrics)', () => {
  it('names a request by its documented route, never by its raw path', () => {
    expect(routeTemplate('POST', '/v1/memory')).to.equal('/v1/memory');
    expect(routeTemplate('GET', '/v1/jobs/job_1_alice?waitMs=100')).to.equal('/v1/jobs/{jobId}');
    expect(routeTemplate('HEAD', '/v1/jobs/job_1_alice')).to.equal('/v1/jobs/{jobId}');
    expect(routeTemplate('GET', '/v1/memories/mem_1/history')).to.equal('/v1/memories/{id}/history');
    expect(routeTemplate('PATCH', '/v1/memories/mem_1')).to.equal('/v1/memories/{id}');
    expect(routeTemplate('GET', '/v1/memory/image/img_1/preview')).to.equal('/v1/memory/image/{jobId}/preview');
    expect(routeTemplate('GET', `/v1/jobs/${'x'.repeat(5000)}`), 'however long the id').to.equal('/v1/jobs/{jobId}');
    expect(routeTemplate('GET', '/metrics')).to.equal('/metrics');
    expect(routeTemplate('POST', '/mcp')).to.equal('/mcp');
  });

  it('counts any other path or method as unmatched, so a scan adds no series', () => {
    for (const [method, url] of [['GET', '/v1/jobs/a/b'], ['GET', '/../../etc/passwd'], ['PUT', '/v1/memory'], ['GET', '/v1/memories/'], [undefined, undefined]] as const) {
      expect(routeTemplate(method, url), `${method} ${url?.slice(0, 40)}`).to.equal('unmatched');
    }
  });
});
