import { expect } from 'chai';
import {
  InferenceClientHubApiError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
} from '@huggingface/inference';
import { MemoryServiceError } from '@memory/platform';
import { mapHostedError } from './error-map.js';

// The SDK's own error classes, built the way its request code builds them from an HTTP answer.
function httpFailure(status: number): InferenceClientProviderApiError {
  return new InferenceClientProviderApiError(`Failed to perform inference: status ${status}`, { url: 'https://router.example/x', method: 'POST' }, { requestId: 'r1', status, body: '' });
}

describe('mapHostedError', () => {
  const cases: Array<[number, string, boolean]> = [
    [400, 'EMBEDDER.REJECTED', false],
    [401, 'EMBEDDER.UNAUTHORIZED', false],
    [403, 'EMBEDDER.UNAUTHORIZED', false],
    [404, 'EMBEDDER.MODEL_NOT_FOUND', false],
    [408, 'EMBEDDER.TIMEOUT', true],
    [422, 'EMBEDDER.REJECTED', false],
    [429, 'EMBEDDER.RATE_LIMITED', true],
    [500, 'EMBEDDER.UNAVAILABLE', true],
    [502, 'EMBEDDER.UNAVAILABLE', true],
    [503, 'EMBEDDER.UNAVAILABLE', true],
  ];
  for (const [status, code, retriable] of cases) {
    it(`maps HTTP ${status} to ${code} (${retriable ? '' : 'not '}retriable)`, () => {
      const mapped = mapHostedError(httpFailure(status));
      expect(mapped).to.be.instanceOf(MemoryServiceError);
      expect(mapped).to.include({ code, retriable });
      expect(mapped.details).to.deep.equal({ status, requestId: 'r1' });
    });
  }

  it('maps hub API failures by status too', () => {
    const hub = new InferenceClientHubApiError('hub down', { url: 'https://huggingface.co/api', method: 'GET' }, { requestId: '', status: 504, body: '' });
    expect(mapHostedError(hub)).to.include({ code: 'EMBEDDER.UNAVAILABLE', retriable: true });
  });

  it('maps SDK input, routing and output errors to non-retriable codes', () => {
    expect(mapHostedError(new InferenceClientInputError('bad'))).to.include({ code: 'EMBEDDER.REJECTED', retriable: false });
    expect(mapHostedError(new InferenceClientRoutingError('no provider'))).to.include({ code: 'EMBEDDER.ROUTING', retriable: false });
    expect(mapHostedError(new InferenceClientProviderOutputError('malformed'))).to.include({ code: 'EMBEDDER.BAD_RESPONSE', retriable: false });
  });

  it('retries timeouts and connection failures, not a close', async () => {
    const timeout = await fetch('http://127.0.0.1:9', { signal: AbortSignal.timeout(0) }).catch((error: unknown) => error);
    expect(mapHostedError(timeout)).to.include({ retriable: true });
    expect(mapHostedError(new DOMException('timed out', 'TimeoutError'))).to.include({ code: 'EMBEDDER.TIMEOUT', retriable: true });
    expect(mapHostedError(new DOMException('aborted', 'AbortError'))).to.include({ code: 'EMBEDDER.CLOSED', retriable: false });
    const refused = await fetch('http://127.0.0.1:9').catch((error: unknown) => error);
    expect(mapHostedError(refused)).to.include({ code: 'EMBEDDER.UNAVAILABLE', retriable: true });
  });

  it('keeps our own errors and the original cause', () => {
    const ours = new MemoryServiceError('EMBEDDER.CLOSED', 'closed');
    expect(mapHostedError(ours)).to.equal(ours);
    const original = httpFailure(429);
    expect(mapHostedError(original).cause).to.equal(original);
  });
});
