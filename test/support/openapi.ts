import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The committed openapi.json, and JSON Schema 2020-12 validators for the schemas it documents. */
export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi.json', import.meta.url));

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  webhooks: Record<string, { post: any }>;
  components: Record<string, any>;
  servers: { url: string }[];
  [key: string]: unknown;
}

export function loadOpenApi(): OpenApiDocument {
  return JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function openApiValidators(doc: OpenApiDocument = loadOpenApi()) {
  // The whole document is registered under an id so that the `#/components/...` references inside
  // any of its schemas resolve; OpenAPI's own keywords are not schema keywords, hence strict off.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const cache = new Map<string, ValidateFunction>();
  const at = (pointer: string): ValidateFunction => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };
  const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
  return {
    /** The documented response schema for (path, method, status); throws if none is documented. */
    response(path: string, method: string, status: number): ValidateFunction {
      const documented = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
      if (!documented) throw new Error(`${method} ${path} does not document status ${status}`);
      return at(`/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`);
    },
    requestBody(path: string, method: string): ValidateFunction {
      return at(`/paths/${escape(path)}/${method.toLowerCase()}/requestBody/content/application~1json/schema`);
    },
    /** A schema given by value, such as a leaf of the document beside its `examples`. */
    schema(schema: Record<string, unknown>): ValidateFunction {
      return ajv.compile(schema);
    },
    component(name: string): ValidateFunction {
      return at(`/components/schemas/${escape(name)}`);
    },
    event(type: string): ValidateFunction {
      return at(`/webhooks/${escape(type)}/post/requestBody/content/application~1json/schema`);
    },
    errorsText: (validate: ValidateFunction) => ajv.errorsText(validate.errors, { separator: '\n' }),
  };
}
