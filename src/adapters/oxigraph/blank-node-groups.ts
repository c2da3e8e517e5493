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

/** Which blank node labels a text has. */
export type LabelSet = Pick<ReadonlySet<string>, 'has' | 'size'>;

/** Lines of work between two looks at the clock: a look costs little, a line of N-Quads ~0.1–1 µs. */
const CHECK_EVERY = 64;

/**
 * Groups the lines of `text` by the blank nodes they share. A line for which `stays` holds, every line
 * that shares a blank node with it, and every line with a label in `shared` (written by another op of
 * the change, which one load would have made the same node) is kept for the rest of the change.
 * In steps: each step() works until `budgetMs` has passed and says whether there is more, so the
 * caller can give the event loop a turn between steps. Grouping the ~6,000 lines of a 640-item Create took ~25–40 ms in one
 * piece on a loaded 2-core machine, the largest piece of a large Create on the event loop.
 */
export class LineGrouping {
  /** Each blank node label's parent in the union-find; a root is its own. Every label of the text is a key. */
  private readonly parent = new Map<string, string>();
  private readonly lines: string[] = [];
  /** The first blank node label of each line, and whether the line stays. */
  private readonly first: (string | undefined)[] = [];
  private readonly stay: boolean[] = [];
  /** Labels whose groups stay: `shared`, then every label of a line that stays. */
  private readonly keepLabels: string[];
  private readonly keptRoots = new Set<string>();
  private readonly byRoot = new Map<string, number>();
  private readonly grouped: string[][] = [];
  private readonly joined: string[] = [];
  private readonly kept: string[] = [];
  private phase: 'lines' | 'kept' | 'assign' | 'join' | 'done' = 'lines';
  /** Where the phase is: a character of the text, then an index into keepLabels, lines or grouped. */
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly stays: (line: string) => boolean,
    shared: ReadonlySet<string>,
  ) {
    this.keepLabels = [...shared];
  }

  /** Every blank node label of the text (whole once done). */
  get labels(): LabelSet {
    return this.parent;
  }

  /** Works for about `budgetMs`; true while there is more to do. */
  step(budgetMs = Infinity): boolean {
    const until = performance.now() + budgetMs;
    for (let n = 1; this.phase !== 'done'; n++) {
      this.work();
      if (n % CHECK_EVERY === 0 && performance.now() >= until) break;
    }
    return this.phase !== 'done';
  }

  /** The groups and the kept lines, once step() has said there is no more. */
  result(): LineGroups {
    if (this.phase !== 'done') throw new Error('The lines are not grouped yet');
    return { groups: this.joined, kept: this.kept.length === 0 ? '' : `${this.kept.join('\n')}\n` };
  }

  /** One unit of the current phase. */
  private work(): void {
    switch (this.phase) {
      case 'lines':
        return this.line();
      case 'kept': {
        const label = this.keepLabels[this.at++];
        if (label === undefined) this.next('assign');
        else if (this.parent.has(label)) this.keptRoots.add(this.find(label));
        return;
      }
      case 'assign':
        return this.assign();
      case 'join': {
        const group = this.grouped[this.at++];
        if (group === undefined) this.next('done');
        else this.joined.push(`${group.join('\n')}\n`);
        return;
      }
      case 'done':
        return;
    }
  }

  private next(phase: LineGrouping['phase']): void {
    this.phase = phase;
    this.at = 0;
  }

  /** Reads the next line of the text: its labels joined in the union-find. */
  private line(): void {
    if (this.at >= this.text.length) return this.next('kept');
    let end = this.text.indexOf('\n', this.at);
    if (end < 0) end = this.text.length;
    const line = this.text.slice(this.at, end);
    this.at = end + 1;
    if (line.length === 0) return;
    const found = blankLabels(line);
    for (const label of found) if (!this.parent.has(label)) this.parent.set(label, label);
    if (found.length === 2) {
      const a = this.find(found[0]!);
      const b = this.find(found[1]!);
      if (a !== b) this.parent.set(a, b);
    }
    const stays = this.stays(line);
    if (stays) this.keepLabels.push(...found);
    this.lines.push(line);
    this.first.push(found[0]);
    this.stay.push(stays);
  }

  /** Puts the next line in its group, or with the kept lines. */
  private assign(): void {
    const i = this.at++;
    const line = this.lines[i];
    if (line === undefined) return this.next('join');
    const first = this.first[i];
    const root = first === undefined ? undefined : this.find(first);
    if (this.stay[i] || (root !== undefined && this.keptRoots.has(root))) this.kept.push(line);
    else if (root === undefined) this.grouped.push([line]);
    else {
      const at = this.byRoot.get(root);
      if (at === undefined) {
        this.byRoot.set(root, this.grouped.length);
        this.grouped.push([line]);
      } else this.grouped[at]!.push(line);
    }
  }

  private find(label: string): string {
    let root = label;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    for (let at = label; at !== root;) {
      const next = this.parent.get(at)!;
      this.parent.set(at, root);
      at = next;
    }
    return root;
  }
}
