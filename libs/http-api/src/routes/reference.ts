import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, static as serveStatic } from 'express';
import { openApiDocument } from '../openapi/document.js';

const ASSETS_PATH = '/docs/assets';
// The page's script and styles come from the swagger-ui-dist package on disk: the reference works offline.
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Memory service API</title>
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });</script>
</body>
</html>
`;

/** GET /openapi.json and GET /docs, without authentication: what a client is generated from and a person reads. */
export function referenceRoutes(): Router {
  const router = Router();
  const document = openApiDocument();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.use(ASSETS_PATH, serveStatic(SWAGGER_UI_DIR, { index: false, fallthrough: true }));
  return router;
}
