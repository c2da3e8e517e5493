/**
 * Oxigraph gives the blank nodes of each load fresh labels of its own, so a blank node written in two
 * loads becomes two blank nodes. What is loaded in slices (staged-inserts.ts) is therefore cut between
 * groups of lines that share no blank node: each blank node's lines are in one group (a consignment's
 * item and the line that links it to the consignment), and a line without one is a group of its own.
 */

/** The blank node labels of a line of N-Quads: its subject's and its object's (a predicate is an IRI). */
export function blankLabels(line: string): string[] {
  const labels: string[] = [];
  const subjectEnd = line.indexOf(' ');
  if (line.startsWith('_:')) labels.push(line.slice(0, subjectEnd));
  const objectStart = line.indexOf(' ', subjectEnd + 1) + 1;
  if (line.startsWith('_:', objectStart)) labels.push(line.slice(objectStart, line.indexOf(' ', objectStart)));
  return labels;
}

/** The blank node labels of every line of `text`. */
export function labelsIn(text: string): Set<string> {
  const labels = new Set<string>();
  if (!text.includes('_:')) return labels;
  for (const line of text.split('\n')) for (const label of blankLabels(line)) labels.add(label);
  return labels;
}

export interface LineGroups {
  /** Text of each group that may load on its own, in the order of its first line. */
  groups: string[];
  /** Lines that stay with the rest of the change: `stays` said so, or they share a blank node with one that does, or with `shared`. */
  kept: string;
}

/**
 * Groups the lines of `text` by the blank nodes they share. A line for which `stays` holds, every line
 * that shares a blank node with it, and every line with a label in `shared` (written by another op of
 * the change, which one load would have made the same node) is kept for the rest of the change.
 */
export function groupLines(text: string, stays: (line: string) => boolean, shared: Set<string>): LineGroups {
  const lines = text.split('\n').filter((line) => line.length > 0);
  const parent = new Map<string, string>();
  const find = (label: string): string => {
    let root = label;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let at = label; at !== root;) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const labels = lines.map((line) => {
    const found = blankLabels(line);
    for (const label of found) if (!parent.has(label)) parent.set(label, label);
    if (found.length === 2 && find(found[0]!) !== find(found[1]!)) parent.set(find(found[0]!), find(found[1]!));
    return found;
  });
  const keptRoots = new Set<string>();
  for (const label of shared) if (parent.has(label)) keptRoots.add(find(label));
  lines.forEach((line, i) => {
    if (stays(line)) for (const label of labels[i]!) keptRoots.add(find(label));
  });
  const grouped = new Map<string, string[]>();
  const kept: string[] = [];
  lines.forEach((line, i) => {
    const first = labels[i]![0];
    const root = first === undefined ? undefined : find(first);
    if (stays(line) || (root !== undefined && keptRoots.has(root))) kept.push(line);
    else if (root === undefined) grouped.set(`line ${i}`, [line]);
    else {
      const group = grouped.get(root);
      if (group) group.push(line);
      else grouped.set(root, [line]);
    }
  });
  return {
    groups: [...grouped.values()].map((group) => `${group.join('\n')}\n`),
    kept: kept.length === 0 ? '' : `${kept.join('\n')}\n`,
  };
}
