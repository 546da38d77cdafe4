// Counts the type assertions (`x as T`, not `as const`) and non-null assertions (`x!`) in src/
// with the TypeScript compiler's own parser, and fails when a count is above its ceiling.
// A cast tells the compiler to stop checking; the ceilings only ever move down.
// Usage: node scripts/count-casts.mjs [--list]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The most of each that src/ may hold. Lower them as casts are replaced by types and guards. */
const CEILINGS = { as: 7, nonNull: 0, asUnknownAs: 0 };

const root = join(import.meta.dirname, '..');
const list = process.argv.includes('--list');

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const isAsConst = (node) =>
  ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const';

const counts = { as: 0, nonNull: 0, asUnknownAs: 0 };
for (const file of sourceFiles(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = (node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${relative(root, file)}:${line + 1}`;
  };
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isAsConst(node)) {
      counts.as++;
      const inner = ts.isAsExpression(node.expression) ? node.expression : null;
      if (inner && inner.type.kind === ts.SyntaxKind.UnknownKeyword) counts.asUnknownAs++;
      if (list) console.log(`as       ${where(node)}`);
    } else if (ts.isNonNullExpression(node)) {
      counts.nonNull++;
      if (list) console.log(`nonNull  ${where(node)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const over = Object.entries(CEILINGS).filter(([name, most]) => counts[name] > most);
console.log(
  `casts in src/: ${counts.as} 'as' (at most ${CEILINGS.as}), ${counts.nonNull} '!' (at most ${CEILINGS.nonNull}), ` +
    `${counts.asUnknownAs} 'as unknown as' (at most ${CEILINGS.asUnknownAs})`,
);
if (over.length > 0) {
  console.error(`over the ceiling: ${over.map(([name]) => name).join(', ')}; run with --list to see where`);
  process.exit(1);
}
