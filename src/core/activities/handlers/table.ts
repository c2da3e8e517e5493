import { addDocument } from './add-document.js';
import { addEvent } from './add-event.js';
import { create } from './create.js';
import type { Handler } from './handler.js';
import { update } from './update.js';

/** Which handler an activity goes to: its type, and for an Add what its object is. */
export type HandlerKey = 'create' | 'update' | 'add-event' | 'add-document';

/** One handler per kind of write; a new kind of activity is a new row. */
export const HANDLERS: Readonly<Record<HandlerKey, Handler>> = {
  create,
  update,
  'add-event': addEvent,
  'add-document': addDocument,
};
