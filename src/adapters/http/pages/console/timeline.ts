/** One line of a consignment's timeline, whatever it came from. */
export interface TimelineEntry {
  at: string;
  kind: 'event' | 'document' | 'system';
  title: string;
  detail: string;
  publisher: string | null;
}

// A framed read view as the API serves it: JSON whose fields the page reads as they come.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

/** A readable code: `svc:despatched` → `despatched`; `unece:DocumentCodeList#380` → `380`. */
export function shortCode(value: unknown): string {
  const code = text(value);
  return code.replace(/^.*[#:]/, '') || code;
}

function eventDetail(event: Json): string {
  const location = event.occurrenceLocation as Json | undefined;
  const where = location ? [location.name, location.UNLocode].filter((v) => typeof v === 'string').join(' ') : '';
  return [where && `at ${where}`, event.occurrenceDateTime && `occurred ${text(event.occurrenceDateTime)}`].filter(Boolean).join(', ');
}

/**
 * The read view's events, document revisions and system events in one list, oldest first. It reads
 * only what the view holds, so it shows exactly what the API would answer to the same caller.
 */
export function timeline(view: Json): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const event of (view.events ?? []) as Json[]) {
    entries.push({
      at: text(event.published ?? event.occurrenceDateTime),
      kind: 'event',
      title: `Event ${shortCode(event.typeCode)}`,
      detail: eventDetail(event),
      publisher: event.publisher ?? null,
    });
  }
  // The view dates only a document's current revision; the earlier ones are named on its line.
  for (const document of (view.documents ?? []) as Json[]) {
    const earlier = ((document.history ?? []) as Json[]).map((h) => h.documentRevision).filter((r) => r !== document.documentRevision);
    entries.push({
      at: text(document.published),
      kind: 'document',
      title: `Document ${text(document.documentId)} revision ${text(document.documentRevision)}`,
      detail: [
        document.documentType ?? shortCode(document.documentCode),
        document.metadata?.encodingFormat,
        earlier.length > 0 && `earlier revisions ${earlier.join(', ')}`,
      ]
        .filter(Boolean)
        .join(', '),
      publisher: document.publisher ?? null,
    });
  }
  for (const system of (view.systemEvents ?? []) as Json[]) {
    const source = system.source as Json | undefined;
    entries.push({
      at: text(system.date),
      kind: 'system',
      title: `System ${text(system.typeCode)}`,
      detail: text(system.object?.type ?? ''),
      publisher: typeof source?.id === 'string' ? source.id : null,
    });
  }
  // Stable: entries with the same instant keep the order above (event, then document, then system).
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
