/**
 * Address checks, in the order docs/api.md fixes ("Generate with an address", "POST /v1/keys/claim"): syntax (`invalid_email`), then a
 * throwaway or placeholder domain (`disposable_email`), then, on claim only, the MX look-up
 * (`undeliverable_email`).
 */
import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';
import { DomainError } from '../errors.ts';
import type { MxChecker } from './mx.ts';

const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
// RFC 5322 dot-atom: the characters of an unquoted local part. Quoted local parts and
// non-ASCII local parts are refused on purpose: hardly anyone has one, and many servers cannot deliver them.
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

function invalid(): DomainError {
  return new DomainError('invalid_email', 'The email address must look like local@domain.tld.');
}

/**
 * Returns the address with its domain lower-cased and in ASCII (IDNA) form, so that one
 * mailbox always normalises to the same string. The local part keeps its case: RFC 5321
 * lets the receiving server treat it as case-sensitive.
 */
export function checkAddressSyntax(email: string): string {
  const address = email.trim();
  if (address.length > MAX_ADDRESS || /\s/.test(address)) throw invalid();
  const parts = address.split('@');
  if (parts.length !== 2) throw invalid();
  const [local, rawDomain] = parts;
  if (local.length === 0 || local.length > MAX_LOCAL) throw invalid();
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) throw invalid();

  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included, is the test.
  const domain = (/^[\x00-\x7f]*$/.test(rawDomain) ? rawDomain : domainToASCII(rawDomain)).toLowerCase();
  if (domain.length === 0 || domain.length > MAX_DOMAIN) throw invalid();
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) throw invalid();
  if (!TLD.test(labels[labels.length - 1])) throw invalid();

  const normalized = `${local}@${domain}`;
  if (normalized.length > MAX_ADDRESS) throw invalid();
  return normalized;
}

const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox a normalised address delivers to: the one definition every per-address limit
 * counts by. Case folded, the `+tag` of the local part removed (`ann+x@` reaches `ann@`), and for
 * gmail.com and googlemail.com (one service, two names) the dots of the local part removed and
 * the domain written gmail.com, since Gmail ignores them. Used only for counting and matching,
 * never to address a mail: codes go to the address as the user wrote it.
 */
export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at).toLowerCase();
  let domain = address.slice(at + 1).toLowerCase();
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

// RFC 2606 / RFC 6761 names that can never be someone's mailbox.
const RESERVED_TLDS = new Set(['test', 'invalid', 'localhost', 'example']);

let throwaway: Set<string> | undefined;

/**
 * The npm list (disposable-email-domains-js: the community-kept disposable-email-domains
 * blocklist, republished on every upstream change), read on first use and kept. It has no
 * wildcard file: isDisposable walks up the parents, so a subdomain of a listed name counts.
 */
function throwawayDomains(): Set<string> {
  if (!throwaway) {
    const require = createRequire(import.meta.url);
    const list: { disposableEmailBlocklist: () => string[] } = require('disposable-email-domains-js');
    throwaway = new Set(list.disposableEmailBlocklist().map((d) => d.toLowerCase()));
  }
  return throwaway;
}

/**
 * True for a throwaway-mail domain (or any subdomain of one) and for the reserved
 * placeholder names (`example.*`): any domain whose first label is
 * `example` (example.com, example.co.uk), subdomains of example.<TLD>, and anything under
 * .test, .invalid, .localhost or .example.
 */
export function isDisposable(domain: string): boolean {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  const tld = labels[labels.length - 1];
  if (RESERVED_TLDS.has(tld)) return true;
  if (labels[0] === 'example') return true;
  if (labels.length >= 2 && labels[labels.length - 2] === 'example') return true;
  const list = throwawayDomains();
  // Walk from the full name up to its second-level parent: mail.mailinator.com counts too.
  for (let i = 0; i < labels.length - 1; i++) {
    if (list.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/**
 * All address checks in their fixed order; returns the normalised address. Pass `mx` on
 * claim only: generate does not look up the domain's mail server.
 */
export async function checkAddress(email: string, opts: { mx?: MxChecker } = {}): Promise<string> {
  const address = checkAddressSyntax(email);
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (isDisposable(domain)) {
    throw new DomainError(
      'disposable_email',
      'Addresses at throwaway or placeholder domains cannot be used; use a mailbox you keep.',
    );
  }
  if (opts.mx && (await opts.mx.check(domain)) === 'undeliverable') {
    throw new DomainError(
      'undeliverable_email',
      `The domain ${domain} has no mail server, so no code can reach this address.`,
    );
  }
  return address;
}
