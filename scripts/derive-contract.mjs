// Derives the committed REST contract from Camunda's 7.22 OpenAPI document: paths, methods,
// parameters, request bodies, responses, schemas and enums are kept; descriptions, summaries and
// examples (Camunda's prose) are dropped. Usage: node scripts/derive-contract.mjs [source.json]
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? resolve(root, '../shared/reference/camunda7-openapi.json');
const target = resolve(root, 'packages/http-koa/contract/camunda-rest-7.22.json');

const DROPPED = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', 'title', 'tags', 'servers', 'license', 'contact']);

function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) && !isPropertyName(node, key)) continue;
    out[key] = strip(value);
  }
  return out;
}

// A schema's `properties` may legitimately contain a property called "description" or "title".
function isPropertyName(node, key) {
  return node.__isProperties === true && key !== '__isProperties';
}

function markProperties(node) {
  if (Array.isArray(node)) return node.forEach(markProperties);
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      Object.defineProperty(value, '__isProperties', { value: true, enumerable: false });
    }
    markProperties(value);
  }
}

const doc = JSON.parse(readFileSync(source, 'utf8'));
markProperties(doc);
const contract = {
  openapi: doc.openapi,
  info: { title: 'Camunda Platform REST API contract (names and shapes)', version: doc.info.version },
  paths: strip(doc.paths),
  components: strip(doc.components),
};
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, JSON.stringify(contract) + '\n');
console.log(`wrote ${target} (${Object.keys(contract.paths).length} paths)`);
