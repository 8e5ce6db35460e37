import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';

/** The MemoryServiceError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<MemoryServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(MemoryServiceError);
    return error as MemoryServiceError;
  }
  return expect.fail('expected a MemoryServiceError, but it succeeded');
}
