/**
 * A route's example request written three ways: curl, JavaScript (mod97-client, or fetch where the
 * client has no method for the route) and Python (the mod97 package, or the standard library where
 * the client has no method for the route). /openapi.json
 * carries them as `x-codeSamples`, /docs shows them in tabs, docs/api.md shows the curl one.
 */
import type { RouteExample } from '../api/route-example.ts';

export interface CodeSample {
  lang: 'curl' | 'JavaScript' | 'Python';
  label: string;
  source: string;
}

const json = (value: unknown) => JSON.stringify(value);
const sendsBody = (ex: RouteExample) => ex.body !== undefined;

/** The example's own headers, each value either a literal or the name of the variable holding it. */
const ownHeaders = (ex: RouteExample) =>
  Object.entries(ex.headers ?? {}).map(([name, value]) => ({
    name,
    value,
    variable: value.startsWith('$') ? value.slice(1) : null,
  }));

export function curlOf(ex: RouteExample, base: string): string {
  const lines = [`curl${ex.method === 'GET' ? '' : ` -X ${ex.method}`} ${base}${ex.path}`];
  if (ex.key) lines.push(`-H "Authorization: Bearer $MOD97_API_KEY"`);
  for (const h of ownHeaders(ex)) lines.push(`-H "${h.name}: ${h.value}"`);
  if (sendsBody(ex)) lines.push(`-H "Content-Type: application/json"`, `-d '${json(ex.body)}'`);
  return lines.join(' \\\n  ');
}

function javascriptOf(ex: RouteExample, base: string): string {
  if (ex.js) {
    return [
      `import { Mod97 } from 'mod97-client';`,
      '',
      `const mod97 = new Mod97({ baseUrl: '${base}'${ex.key ? ', apiKey: process.env.MOD97_API_KEY' : ''} });`,
      `const answer = ${ex.js};`,
      'console.log(answer);',
    ].join('\n');
  }
  const headers = [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample's own JavaScript template literal
    ...(ex.key ? ['Authorization: `Bearer ${process.env.MOD97_API_KEY}`'] : []),
    ...ownHeaders(ex).map((h) => `'${h.name}': ${h.variable ? `process.env.${h.variable}` : `'${h.value}'`}`),
    ...(sendsBody(ex) ? [`'Content-Type': 'application/json'`] : []),
  ];
  const options = [
    `method: '${ex.method}'`,
    ...(headers.length ? [`headers: { ${headers.join(', ')} }`] : []),
    ...(sendsBody(ex) ? [`body: JSON.stringify(${json(ex.body)})`] : []),
  ];
  return [
    `const response = await fetch('${base}${ex.path}', {`,
    ...options.map((o) => `  ${o},`),
    '});',
    'console.log(response.status, await response.json());',
  ].join('\n');
}

function pythonOf(ex: RouteExample, base: string): string {
  if (ex.py) {
    return [
      'from mod97 import Mod97',
      '',
      ...(ex.key ? ['# The key is read from MOD97_API_KEY.'] : []),
      `with Mod97(base_url="${base}") as mod97:`,
      `    answer = ${ex.py}`,
      '    print(answer)',
    ].join('\n');
  }
  const headers = [
    ...(ex.key ? [`"Authorization": "Bearer " + os.environ["MOD97_API_KEY"]`] : []),
    ...ownHeaders(ex).map((h) => `"${h.name}": ${h.variable ? `os.environ["${h.variable}"]` : `"${h.value}"`}`),
    ...(sendsBody(ex) ? [`"Content-Type": "application/json"`] : []),
  ];
  return [
    'import json',
    ...(ex.key || ownHeaders(ex).some((h) => h.variable) ? ['import os'] : []),
    'import urllib.error',
    'import urllib.request',
    '',
    'request = urllib.request.Request(',
    `    "${base}${ex.path}",`,
    `    method="${ex.method}",`,
    `    headers={${headers.join(', ')}},`,
    ...(sendsBody(ex) ? [`    data=json.dumps(${pythonLiteral(ex.body)}).encode(),`] : []),
    ')',
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    '        print(response.status, json.load(response))',
    'except urllib.error.HTTPError as refusal:',
    '    print(refusal.code, json.load(refusal))',
  ].join('\n');
}

/** JSON as a Python literal: the same text except true, false and null. */
function pythonLiteral(value: unknown): string {
  return JSON.stringify(value, null, 0)
    .replace(/"(?:[^"\\]|\\.)*"|\btrue\b|\bfalse\b|\bnull\b/g, (token) =>
      token === 'true' ? 'True' : token === 'false' ? 'False' : token === 'null' ? 'None' : token,
    )
    .replace(/,(?=["{[\d])/g, ', ')
    .replace(/":/g, '": ');
}

export function codeSamples(ex: RouteExample, base: string): CodeSample[] {
  return [
    { lang: 'curl', label: 'curl', source: curlOf(ex, base) },
    {
      lang: 'JavaScript',
      label: ex.js ? 'JavaScript (mod97-client)' : 'JavaScript (fetch)',
      source: javascriptOf(ex, base),
    },
    { lang: 'Python', label: ex.py ? 'Python (mod97)' : 'Python (urllib)', source: pythonOf(ex, base) },
  ];
}
