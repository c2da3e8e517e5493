// Reads `eslint -f json` output on stdin and prints what is left: counts by rule, then the files with the most.
import { text } from 'node:stream/consumers';

const results = JSON.parse(await text(process.stdin));
const byRule = new Map();
const byFile = new Map();
let total = 0;
for (const { filePath, messages } of results) {
  for (const { ruleId } of messages) {
    const rule = ruleId ?? 'parse error';
    byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
    const file = filePath.slice(process.cwd().length + 1);
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
    total++;
  }
}
const table = (map, limit) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, count]) => `  ${String(count).padStart(5)}  ${name}`)
    .join('\n');
console.log(`eslint: ${total} problems left in ${byFile.size} files`);
if (total > 0) console.log(`by rule:\n${table(byRule, 50)}\ntop files:\n${table(byFile, 15)}`);
