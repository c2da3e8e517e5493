import { BadRequest } from '../errors.js';
import { requireContexts } from './context-rules.js';
import { isObject, type JsonObject } from '../util/json.js';
import type { ActivityType } from '../catalog/accepted.js';

export type { ActivityType };
const ACTIVITY_TYPES: readonly string[] = ['Create', 'Update', 'Add'];

/** What the node needs from an activity before any RDF work: checked per spec 7.1 (400 cases). */
export interface Envelope {
  type: ActivityType;
  actor: JsonObject;
  object: JsonObject;
  target?: JsonObject;
  body: JsonObject;
}

/** A JSON-LD string field: a plain string or a value object `{"@value": "..."}`. */
export function stringValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value['@value'] === 'string') return value['@value'];
  return undefined;
}

function typeOf(value: JsonObject): unknown {
  return value.type ?? value['@type'];
}

export function checkEnvelope(body: unknown): Envelope {
  if (!isObject(body)) throw new BadRequest('The activity must be a JSON object');
  const type = typeOf(body);
  if (type === undefined) throw new BadRequest('The activity has no type');
  if (typeof type !== 'string' || !ACTIVITY_TYPES.includes(type)) {
    throw new BadRequest(`Unknown activity type ${JSON.stringify(type)}; expected Create, Update or Add`);
  }
  if (!isObject(body.actor)) throw new BadRequest('The activity has no actor object');
  if (!isObject(body.object)) throw new BadRequest('The activity has no object');
  requireContexts(body, body.object);
  // Spec 2.2: registeredId and its @value are required; 7.1 makes their absence a 400, like any field.
  const registeredId = body.actor.registeredId;
  if (registeredId === undefined) throw new BadRequest("The actor has no registeredId (actor.registeredId); it is the organisation's DID");
  if (isObject(registeredId) && !('@value' in registeredId))
    throw new BadRequest("The actor's registeredId has no @value (actor.registeredId.@value); it is the organisation's DID");
  if (type === 'Add') {
    if (!isObject(body.target)) throw new BadRequest('An Add activity needs a target naming the consignment');
    // Spec 2.3 requires both; 7.1: a missing required field is 400.
    if (stringValue(body.target.identifier) === undefined) {
      throw new BadRequest('The target has no identifier');
    }
    if (stringValue(body.target.globalId) === undefined) {
      throw new BadRequest('The target has no globalId');
    }
  }
  return {
    type: type as ActivityType,
    actor: body.actor,
    object: body.object,
    target: isObject(body.target) ? body.target : undefined,
    body,
  };
}
