import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';

type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>> };

/**
 * Checks answers of a running service against its own OpenAPI document: the status must be one the operation lists,
 * and a JSON body must match that status's schema. Real answers (memories with their enrichment, jobs, searches
 * with explain) reach shapes a generator rarely does.
 */
/** A JSON pointer segment: ~ and / escaped. */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export function openApiConformance(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ ...document, $id: 'openapi' });
  return (method: string, path: string, res: { status: number; body: unknown }) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is in the document`).to.exist;
    const answer = operation!.responses[String(res.status)];
    expect(answer, `${method} ${path} documents status ${res.status}: ${JSON.stringify(res.body)}`).to.exist;
    const schema = answer!.content?.['application/json']?.schema;
    if (!schema) return;
    // The operation's schema, found inside the document registered above (compiled once there).
    const validate = ajv.getSchema(`openapi#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${res.status}/content/application~1json/schema`)!;
    expect(validate(res.body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 600)}`).to.equal(true);
  };
}
