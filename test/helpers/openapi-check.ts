import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export is the function under ESM interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, any>;

/** One answer the node gave, as the check sees it. */
export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** An operation of the document: its path template, method and id. */
export interface DocumentedOperation {
  path: string;
  method: string;
  operationId: string;
  /** Matches a concrete path: `{param}` stands for one segment. */
  pattern: RegExp;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * Checks real answers against an OpenAPI 3.1 document with ajv (JSON Schema 2020-12): the status is one
 * the operation lists, the media type one it lists for that status, and a JSON body conforms to the
 * schema given there. Component references resolve against the document's own components.
 */
export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  readonly operations: DocumentedOperation[] = [];

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: doc.components });
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const pattern = new RegExp(
          `^${path
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}$`,
        );
        this.operations.push({ path, method, operationId: (op as Json).operationId, pattern });
      }
    }
    // A literal path wins over a template that also matches it (fewest parameters first).
    this.operations.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  }

  /** The documented operation a request reaches, if any. */
  find(method: string, path: string): DocumentedOperation | undefined {
    const bare = path.split('?')[0]!;
    return this.operations.find((op) => op.method === method.toLowerCase() && op.pattern.test(bare));
  }

  /** What is wrong with `answer` as an answer of `op`; empty when nothing is. */
  problems(op: DocumentedOperation, answer: Answer): string[] {
    const responses = this.doc.paths[op.path][op.method].responses as Json;
    const response = responses[String(answer.status)] as Json | undefined;
    if (!response) return [`status ${answer.status} is not documented (${Object.keys(responses).join(', ')})`];
    const content = response.content as Json | undefined;
    if (!content) return answer.text === '' ? [] : [`status ${answer.status} is documented without a body, and one came`];
    const mediaType = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const documented = content[mediaType] !== undefined ? mediaType : content['*/*'] !== undefined ? '*/*' : undefined;
    if (!documented)
      return [`${mediaType || 'no content type'} is not documented for ${answer.status} (${Object.keys(content).join(', ')})`];
    let body: unknown = answer.text;
    if (JSON_TYPE.test(mediaType)) {
      try {
        body = JSON.parse(answer.text);
      } catch {
        return [`the ${mediaType} body is not JSON`];
      }
    }
    const validate = this.validator(op, String(answer.status), documented, content[documented].schema ?? {});
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  }

  private validator(op: DocumentedOperation, status: string, mediaType: string, schema: Json): ValidateFunction {
    const key = `${op.method} ${op.path} ${status} ${mediaType}`;
    let validate = this.validators.get(key);
    if (!validate) {
      // The response schema compiled on its own, its component references pointed at the document's.
      const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
      validate = this.ajv.compile(rooted);
      this.validators.set(key, validate);
    }
    return validate;
  }
}
