/**
 * Builds mod97-client into dist/: index.js (the client, importing nothing) and index.d.ts, whose
 * types stand alone.
 *
 * The client's answer types are the service's own wire schemas (`Static<typeof ValidateAnswer>`
 * from src/api/, imported as types only), so they are never written twice. Declarations emitted
 * as they are would import those schemas and TypeBox, which the package does not ship and its
 * users do not install. So, while TypeScript writes the declarations, every type alias built on
 * an import from outside this package is written out as the type it resolves to (an object of
 * plain properties, a union of literals), and those imports are dropped: the published
 * index.d.ts imports nothing (clients/typescript/test/package.test.ts checks it).
 *
 * Run from anywhere: `node clients/typescript/scripts/build.mjs` (the root build runs it, and
 * `npm pack` here runs it as `prepack`). TypeScript comes from the repository's node_modules.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const pkg = fileURLToPath(new URL('../', import.meta.url));
const entry = join(pkg, 'src/index.ts');
const outdir = join(pkg, 'dist');

const config = ts.getParsedCommandLineOfConfigFile(
  join(pkg, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail },
);
const program = ts.createProgram([entry], { ...config.options, noEmit: false, declaration: true, sourceMap: false });
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length) fail(diagnostics);
const checker = program.getTypeChecker();

/** An import of something outside this package (the service's schemas, TypeBox). */
const outside = (specifier) =>
  !resolve(dirname(entry), specifier).startsWith(join(pkg, 'src')) || !specifier.startsWith('.');

/** The names a file imports from outside the package. */
function outsideNames(file) {
  const names = new Set();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !outside(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
  }
  return names;
}

function mentions(node, names) {
  if (ts.isIdentifier(node) && names.has(node.text)) return true;
  return ts.forEachChild(node, (child) => mentions(child, names)) ?? false;
}

const FLAGS =
  ts.NodeBuilderFlags.InTypeAlias |
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.MultilineObjectLiterals |
  ts.NodeBuilderFlags.UseSingleQuotesForStringLiteralType;

/** The declarations transformer: aliases over outside imports written out, those imports dropped. */
const standAlone = (context) => (file) => {
  const original = ts.getOriginalNode(file);
  const names = outsideNames(program.getSourceFile(original.fileName) ?? original);
  return ts.visitEachChild(
    file,
    (node) => {
      if (ts.isImportDeclaration(node) && outside(node.moduleSpecifier.text)) return undefined;
      if (!ts.isTypeAliasDeclaration(node)) return node;
      const source = ts.getOriginalNode(node);
      if (!ts.isTypeAliasDeclaration(source) || !mentions(source.type, names)) return node;
      const written = writtenOut(context.factory, checker.getTypeAtLocation(source.name), source.name.text);
      return context.factory.updateTypeAliasDeclaration(node, node.modifiers, node.name, node.typeParameters, written);
    },
    context,
  );
};

/**
 * The type as plain TypeScript. A union is written member by member: written whole, TypeScript
 * keeps the name of an imported alias among its members (`ErrorCode | 'timeout'`).
 */
function writtenOut(factory, type, name) {
  const nodes = (type.isUnion() ? type.types : [type]).map((t) => checker.typeToTypeNode(t, undefined, FLAGS));
  if (nodes.some((n) => n === undefined)) throw new Error(`mod97-client: cannot write out the type ${name}`);
  return nodes.length === 1 ? nodes[0] : factory.createUnionTypeNode(nodes);
}

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const written = [];
const result = program.emit(
  program.getSourceFile(entry),
  (name, text) => {
    const out = join(outdir, name.endsWith('.d.ts') ? 'index.d.ts' : 'index.js');
    writeFileSync(out, text);
    written.push(out);
  },
  undefined,
  false,
  { afterDeclarations: [standAlone] },
);
if (result.diagnostics.length) fail(result.diagnostics);
const declarations = written.find((f) => f.endsWith('.d.ts'));
if (written.length !== 2 || !declarations)
  throw new Error(`mod97-client: expected index.js and index.d.ts, wrote ${written}`);

function fail(diagnostics) {
  const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
  throw new Error(`mod97-client: ${ts.formatDiagnostics(list, host)}`);
}
