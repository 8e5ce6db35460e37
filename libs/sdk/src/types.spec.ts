import { expect } from 'chai';
import { MemoryClient, type Memory, type UpdateRequest, type WebhookEvent } from './index.js';

/**
 * Type-level checks: this file is compiled by the SDK's build (tsconfig.json takes the specs too), where an
 * `@ts-expect-error` line that compiles is itself an error. The functions are never called: only their types count.
 */
export function updatesThatMustNotCompile(client: MemoryClient): void {
  // @ts-expect-error a plain string is not a change: the body is an object naming what changes
  void client.updateMemory('mem_1', 'just a string');
  // @ts-expect-error a misspelt field is no field of UpdateRequest
  void client.updateMemory('mem_1', { conent: 'typo' });
  // @ts-expect-error at least one of content, userContext and metadata (UPDATE.NOTHING_TO_CHANGE)
  void client.updateMemory('mem_1', {});
  // @ts-expect-error a timestamp alone changes nothing
  void client.updateMemory('mem_1', { timestamp: '2024-01-02' });
}

export function payloadFieldsAreTyped(memory: Memory, event: WebhookEvent): Array<string | number | null | undefined> {
  const { payload } = memory;
  // @ts-expect-error entity types are a closed list
  const unknownEntityType: (typeof payload.entities)[number]['type'] = 'animal';
  return [
    payload.original_content, payload.themes[0], payload.entities[0]?.name, payload.event_times[0]?.start, payload.embedding_model,
    payload.image?.width, payload.image?.captured_at, payload.image?.dominant_colours[0]?.hex, payload.document?.page_number, payload.document?.file_name,
    event.data.jobId, event.data.memoryIds[0], event.data.error?.code, event.data.targetJobId, unknownEntityType,
  ];
}

describe('the request types', () => {
  it('updateMemory takes each single-field change and sends it as it is', async () => {
    const sent: unknown[] = [];
    const client = new MemoryClient({
      baseUrl: 'http://memory.test', apiKey: 'key', endUserId: 'alice',
      fetch: (async (_url: string, init: RequestInit) => {
        sent.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ status: 'Accepted', jobId: 'upd_job_1_alice' }), { status: 202 });
      }) as typeof fetch,
    });
    const changes: UpdateRequest[] = [{ content: 'new text', timestamp: '2024-01-02' }, { userContext: null }, { metadata: { room: 'pantry' } }];
    for (const change of changes) await client.updateMemory('mem_1', change);
    expect(sent).to.deep.equal(changes);
  });
});
