import type { Envelope } from './envelope.js';
import { stringValue } from './envelope.js';
import { isObject } from '../util/json.js';
import type { Principal } from '../auth/principal.js';
import { codesSentBy, ruleOf, type Sender } from './event-codes.js';
import { Forbidden } from '../errors.js';

/**
 * Spec 1.2 and 6 rule 1, as a table: who may send which activity. Checked on the activity's JSON
 * before it is parsed, validated or stored, so a refused role costs nothing and leaves no trace.
 * - freight forwarders publish: Create, Update, Add (documents, and events but those whose code
 *   location operators send, event-codes.ts);
 * - location operators send one kind of activity: Add of a SupplyChainEvent with a code they send;
 * - border agencies receive signals and read: they publish nothing.
 */
export function checkRole(envelope: Envelope, principal: Principal): void {
  const { role, id } = principal.org;
  const rule = ruleOf(addedEventCode(envelope));
  const sender = rule?.sender;
  switch (role) {
    case 'freightForwarder':
      if (sender !== undefined && sender !== role)
        throw new Forbidden(`svc:${rule!.code} is sent by ${SENDERS[sender]} only; ${id} is a freightForwarder`);
      return;
    case 'locationOperator':
      if (sender !== role) {
        throw new Forbidden(
          `A location operator sends only Add of a SupplyChainEvent with typeCode ${codesSentBy(role).join(' or ')}; ${id} sent ${describe(envelope)}`,
        );
      }
      return;
    case 'borderAgency':
      throw new Forbidden(`A border agency receives signals and reads; it publishes nothing (${id} sent ${describe(envelope)})`);
    default:
      throw new Forbidden(`Organisation ${id} has no role that may publish`);
  }
}

/** The senders of a code, as the refusals name them. */
const SENDERS: Readonly<Record<Sender, string>> = { freightForwarder: 'freight forwarders', locationOperator: 'location operators' };

/**
 * Spec 6 rule 1, on the parsed event: a code only one role sends is refused from any other. Run
 * again after parsing, since the typeCode the handler reads is the stored one.
 */
export function checkSender(principal: Principal, typeCode: string | undefined): void {
  const rule = ruleOf(typeCode);
  if (rule === undefined || rule.sender === principal.org.role) return;
  throw new Forbidden(`svc:${rule.code} is sent by ${SENDERS[rule.sender]} only; ${principal.org.id} is a ${principal.org.role}`);
}

/** The typeCode (a string or a value object) of an Add's object, as sent. */
function addedEventCode(envelope: Envelope): string | undefined {
  if (envelope.type !== 'Add' || !isObject(envelope.object)) return undefined;
  return stringValue(envelope.object.typeCode);
}

function describe(envelope: Envelope): string {
  const typeCode = stringValue(envelope.object.typeCode);
  return envelope.type === 'Add' && typeCode !== undefined ? `Add with typeCode ${JSON.stringify(typeCode)}` : `a ${envelope.type}`;
}
