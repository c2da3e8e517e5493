import type { Envelope } from './envelope.js';
import { stringValue } from './envelope.js';
import { isObject } from '../util/json.js';
import type { Principal } from '../auth/principal.js';
import { eventCode } from './status.js';
import { Forbidden } from '../errors.js';

/**
 * Spec 1.2 and 6 rule 1, as a table: who may send which activity. Checked on the activity's JSON
 * before it is parsed, validated or stored, so a refused role costs nothing and leaves no trace.
 * - freight forwarders publish: Create, Update, Add (events other than the operator match, documents);
 * - location operators send one kind of event: Add of a SupplyChainEvent with svc:locationOperatorMatch;
 * - border agencies receive signals and read: they publish nothing.
 */
export function checkRole(envelope: Envelope, principal: Principal): void {
  const { role, id } = principal.org;
  const match = isOperatorMatch(envelope);
  switch (role) {
    case 'freightForwarder':
      if (match) throw new Forbidden(`svc:locationOperatorMatch is sent by location operators only; ${id} is a freightForwarder`);
      return;
    case 'locationOperator':
      if (!match) {
        throw new Forbidden(`A location operator sends only Add of a SupplyChainEvent with typeCode svc:locationOperatorMatch; ${id} sent ${describe(envelope)}`);
      }
      return;
    case 'borderAgency':
      throw new Forbidden(`A border agency receives signals and reads; it publishes nothing (${id} sent ${describe(envelope)})`);
    default:
      throw new Forbidden(`Organisation ${id} has no role that may publish`);
  }
}

/** An Add whose object's typeCode (a string or a value object) names svc:locationOperatorMatch. */
function isOperatorMatch(envelope: Envelope): boolean {
  if (envelope.type !== 'Add' || !isObject(envelope.object)) return false;
  return eventCode(stringValue(envelope.object.typeCode)) === 'locationOperatorMatch';
}

function describe(envelope: Envelope): string {
  const typeCode = stringValue(envelope.object.typeCode);
  return envelope.type === 'Add' && typeCode !== undefined ? `Add with typeCode ${JSON.stringify(typeCode)}` : `a ${envelope.type}`;
}
