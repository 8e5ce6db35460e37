import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';

type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>> };

/**
 * Checks answers of a running service against its own OpenAPI document: the status must be one the operation lists,
 * and a JSON body must match that status's schema. Real answers (memories with their enrichment, jobs, searches
 * with explain) reach shapes a generator rarely does.
 */
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
    // Refs in the document point at #/components/...: resolve them inside the document registered above.
    const ref = JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"openapi#/'));
    expect(ajv.validate(ref, res.body), `${method} ${path} ${res.status}: ${ajv.errorsText()}\n${JSON.stringify(res.body).slice(0, 600)}`).to.equal(true);
  };
}
