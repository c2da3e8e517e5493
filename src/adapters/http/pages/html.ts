import escapeHtml from 'escape-html';

/** Markup that is already safe: produced by `html` or trusted constant text. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A tagged template that escapes every interpolated value unless it is itself `Html`: pages are built
 * only with this, so a consignment field or an error message can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  // A template has one string more than it has values.
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** JSON for a `<script type="application/json">` data block: `<` escaped so no `</script>` can close it. */
export function jsonBlock(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}

/** The headers every page is sent with: scripts and styles from this origin only, nothing framed, no form sent elsewhere. */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
    "connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};
