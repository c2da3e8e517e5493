/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by package or
 * project file, and inclusive time of the project's own functions, so a hot spot can be named in a
 * commit or a report without opening DevTools.
 *
 * Usage: node dist/bench/profile-summary.js <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function where(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = url.slice(modules + 'node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + '/dist/'.length);
  return url === '' ? '(native)' : url.replace(/^node:/, 'node:');
}

function main(): void {
  const [file, topText] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: node dist/bench/profile-summary.js <file.cpuprofile> [top]');
  const top = Number(topText ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });

  const selfByFunction = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id)!;
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + time);
    const place = where(node.callFrame.url);
    selfByPlace.set(place, (selfByPlace.get(place) ?? 0) + time);
    // Inclusive time of project functions: walk up once per distinct frame on the stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      if (!frame.url.includes('/dist/') || frame.url.includes('node_modules')) continue;
      const key = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + time);
    }
  }
  const print = (title: string, map: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
    }
  };
  process.stdout.write(`total ${(total / 1000).toFixed(0)} ms sampled\n`);
  print('self time by package / file', selfByPlace);
  print('self time by function', selfByFunction);
  print('inclusive time of project functions', inclusive);
}

main();
