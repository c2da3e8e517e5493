/**
 * A graph's N-Quads whose literals hold what a separator-based encoding could trip on: spaces, quotes,
 * line breaks, tabs, percent signs, non-ASCII and astral characters, an empty string, language tags
 * and datatypes; and IRI objects. No blank node: a server that skolemises keeps them, Oxigraph does not.
 */
export function awkwardNQuads(graph: string): string {
  const s = '<urn:uuid:22222222-2222-4222-8222-222222222222>';
  const literals = [
    '"Acme \\"Ltd\\" 12 % off\\nsecond line\\tand a tab"@en',
    '"Zürich – 中文 – 🚚 – \\u00A0nbsp"',
    '""',
    '"%41 is not A"',
    '"1.50"^^<http://www.w3.org/2001/XMLSchema#decimal>',
    '"2026-11-20T10:00:00.123Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>',
    '"Grüße"@de-CH',
    '"  leading and trailing  "',
    '"a .\\nb ."',
  ];
  return (
    [
      ...literals.map((literal, n) => `${s} <urn:p:v${n}> ${literal} <${graph}> .`),
      `${s} <urn:p:link> <https://example.org/a%20b?x=1&y=2#f> <${graph}> .`,
      `<https://example.org/other> <urn:p:back> ${s} <${graph}> .`,
    ].join('\n') + '\n'
  );
}
