/**
 * 1,000 references made and judged by src/reference/, and the same references judged by an
 * independent implementation: Debian's python-stdnum (iso11649, ch.esr, luhn) where it has the
 * type, and the published rules written out in Python where it has none (Belgian mod 97, Finnish
 * 7-3-1, Norwegian mod 11). Every other one carries one wrong digit, so both verdicts are exercised.
 * Skipped when /usr/bin/python3 has no stdnum (`.ci/run` installs python3-stdnum).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { createReference, REFERENCE_TYPES, type ReferenceType, validateReference } from '../../src/reference/index.ts';

const PYTHON = '/usr/bin/python3';
const hasStdnum = spawnSync(PYTHON, ['-c', 'import stdnum.iso11649, stdnum.ch.esr, stdnum.luhn'], { stdio: 'ignore' });
const skip = hasStdnum.status === 0 ? false : `${PYTHON} has no stdnum (apt-get install python3-stdnum)`;

const JUDGE = `
import json, sys
from stdnum import iso11649, luhn
from stdnum.ch import esr

def mod11(body):
    total = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(body)))
    check = 11 - total % 11
    return {11: '0', 10: '-'}.get(check, str(check))

def fi(body):
    total = sum(int(d) * (7, 3, 1)[i % 3] for i, d in enumerate(reversed(body)))
    return str(-total % 10)

def valid(kind, ref):
    if kind == 'rf':
        return iso11649.is_valid(ref)
    if kind == 'qrr':
        return len(ref) == 27 and esr.is_valid(ref)
    if kind == 'be_ogm':
        return len(ref) == 12 and ref.isdigit() and (int(ref[:10]) % 97 or 97) == int(ref[10:])
    if kind == 'fi':
        return 4 <= len(ref) <= 20 and ref.isdigit() and fi(ref[:-1]) == ref[-1]
    if kind == 'no_kid':
        body = ref[:-1]
        if not (2 <= len(ref) <= 25 and body.isdigit()):
            return False
        return (ref[-1] != '-' and luhn.is_valid(ref)) or mod11(body) == ref[-1]
    if kind == 'se_ocr':
        return 2 <= len(ref) <= 25 and luhn.is_valid(ref)
    raise ValueError(kind)

print(json.dumps([valid(kind, ref) for kind, ref in json.load(sys.stdin)]))
`;

/** A small seeded generator (mulberry32), so a failure can be reproduced. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FROM_LENGTH: Record<ReferenceType, [number, number]> = {
  rf: [1, 21],
  qrr: [1, 26],
  be_ogm: [1, 10],
  fi: [3, 19],
  no_kid: [1, 24],
  se_ocr: [1, 24],
};

test('1,000 generated references: the engine and an independent implementation agree', { skip }, () => {
  const next = random(34);
  const pick = (chars: string) => chars[Math.floor(next() * chars.length)] ?? '0';
  const cases: [ReferenceType, string][] = [];
  while (cases.length < 1000) {
    const type = REFERENCE_TYPES[cases.length % REFERENCE_TYPES.length] ?? 'rf';
    const [min, max] = FROM_LENGTH[type];
    const length = min + Math.floor(next() * (max - min + 1));
    const alphabet = type === 'rf' ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789';
    const from = Array.from({ length }, () => pick(alphabet)).join('');
    const algorithm = type === 'no_kid' ? (next() < 0.5 ? 'mod10' : 'mod11') : undefined;
    const made = createReference({ type, from, ...(algorithm && { algorithm }) });
    if (!made.ok) {
      assert.equal(made.code, 'reference_not_creatable', `${type} ${from}`);
      continue;
    }
    let reference = made.result.reference;
    if (cases.length % 2 === 1) {
      // One digit changed (never RF's prefix).
      const digits = [...reference].flatMap((c, i) => (/[0-9]/.test(c) ? [i] : []));
      const at = digits[Math.floor(next() * digits.length)] ?? 0;
      const old = reference[at] ?? '0';
      const replacement = String((Number(old) + 1 + Math.floor(next() * 9)) % 10);
      reference = reference.slice(0, at) + replacement + reference.slice(at + 1);
    }
    cases.push([type, reference]);
  }
  const python = spawnSync(PYTHON, ['-c', JUDGE], { input: JSON.stringify(cases), encoding: 'utf8' });
  assert.equal(python.status, 0, python.stderr);
  const theirs: boolean[] = JSON.parse(python.stdout);
  const ours = cases.map(([type, reference]) => validateReference(reference, { type }).valid);
  const disagreements = cases.filter((_, i) => ours[i] !== theirs[i]);
  assert.deepEqual(disagreements, [], 'references judged differently');
  const valid = ours.filter(Boolean).length;
  // Every made reference holds; a single wrong digit is caught by all six checks.
  assert.equal(valid, 500);
  for (const type of REFERENCE_TYPES)
    assert.ok(
      cases.some(([t]) => t === type),
      type,
    );
});
