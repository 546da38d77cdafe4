// mod97 pages: a little script per page, no framework. A key typed or received goes out only in
// the Authorization header, never in a URL, a body or a cookie; between the service's own pages
// it travels in this tab's sessionStorage (see `session`), never in localStorage.
const $ = (id) => document.getElementById(id);

/** Builds an element; children are text or elements, never HTML strings. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/**
 * `cookies`: only for the card checkout and its success page, whose cookies (HttpOnly, sent to
 * the success page alone) let this browser see a bought key again when its display was lost.
 */
async function api(method, path, { key, body, cookies = false } = {}) {
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: cookies ? 'same-origin' : 'omit',
      cache: 'no-store',
    });
  } catch {
    return {
      status: 0,
      body: { error: 'network', message: 'The service could not be reached. Check your connection and try again.' },
    };
  }
  let data = {};
  try {
    data = await res.json();
  } catch {
    data = { error: 'bad_answer', message: `The service answered ${res.status} without a readable body.` };
  }
  // The tab's key was rotated or revoked elsewhere: no page fills it in again.
  if (res.status === 401 && key && key === session.key()) session.forget();
  return { status: res.status, body: data, headers: res.headers };
}

/** A sentence of the API as text nodes, its `code` spans as <code>: never parsed as HTML. */
function inline(text) {
  return String(text)
    .split('`')
    .map((part, i) => (i % 2 ? el('code', {}, part) : part));
}

/** `title`: a sentence, or an array of text and elements (a verdict and what qualifies it). */
function notice(target, kind, title, ...lines) {
  target.replaceChildren(
    el(
      'div',
      { class: `notice ${kind}`, role: kind === 'bad' ? 'alert' : 'status' },
      el('p', { class: 'status' }, ...[].concat(title)),
      ...lines.filter(Boolean).map((l) => (typeof l === 'string' ? el('p', {}, ...inline(l)) : l)),
    ),
  );
}

function facts(target, pairs) {
  target.replaceChildren(
    ...pairs
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]),
  );
}

// The key's shape and its description come from the server (src/keys/secret.ts), rendered
// into the page: one place says what a key looks like.
const KEY_SHAPE = new RegExp(document.body.dataset.keyPattern);
const KEY_SHAPE_TEXT = document.body.dataset.keyShape;
function readKey(input, errorTarget, { optional = false } = {}) {
  const key = input.value.trim();
  if (optional && key === '') return '';
  if (!KEY_SHAPE.test(key)) {
    notice(errorTarget, 'bad', 'That is not an API key.', `${KEY_SHAPE_TEXT} Paste the whole key.`);
    input.focus();
    return null;
  }
  return key;
}

/**
 * The key a person made or used on one of the service's pages, carried to the next page they
 * open in this tab: sessionStorage, so never in a URL, a cookie or a request, and forgotten when
 * the tab closes. Only a key-shaped value is read back.
 */
const SESSION_KEY = 'mod97.api_key';
const session = {
  key() {
    try {
      const key = sessionStorage.getItem(SESSION_KEY);
      return key && KEY_SHAPE.test(key) ? key : null;
    } catch {
      return null;
    }
  },
  keep(key) {
    try {
      if (KEY_SHAPE.test(key)) sessionStorage.setItem(SESSION_KEY, key);
    } catch {
      // Storage refused (a private window, a policy): the person types the key instead.
    }
  },
  forget() {
    try {
      sessionStorage.removeItem(SESSION_KEY);
    } catch {
      // Nothing was kept.
    }
  },
};

/** Fills an empty key field with the key of this tab's session; returns it, or null. */
function fillKey(input) {
  const key = session.key();
  if (key && !input.value.trim()) input.value = key;
  return key && input.value.trim() === key ? key : null;
}

/**
 * Whether a claim would succeed now, by the free usage call: an anonymous key that has made its
 * first call. `null` when the usage could not be read.
 */
async function claimState(key) {
  const u = await api('GET', '/v1/keys/usage', { key });
  if (u.status !== 200) return null;
  const claim = u.body.claim;
  return { tier: u.body.tier, limit: u.body.limit, claim, ready: Boolean(claim?.first_call_made) };
}

/** The example the "Make the first call" step validates. */
const EXAMPLE_IBAN = 'DE89 3704 0044 0532 0130 00';
const UNLISTED = 'bank not found in the loaded registers';

/**
 * Runs a press with its button disabled. A disabled button drops the focus to the page's body,
 * so a keyboard or screen-reader user would lose their place: it goes back to the button,
 * unless what the press showed took it (reveal, a field at fault).
 */
async function busy(button, run) {
  button.disabled = true;
  try {
    await run();
  } finally {
    button.disabled = false;
    if (document.activeElement === document.body && !button.closest('[hidden]')) button.focus();
  }
}

const fmt = (n) => Number(n).toLocaleString('en-US');

/**
 * A refusal in the server's own words: its `message`, and for a refused code how many tries are
 * left (`attempts_left`, counted by the server). Nothing is reworded here.
 */
function explain(body) {
  const lines = [body.message || `The service answered ${body.error || 'an error'}.`];
  if (typeof body.attempts_left === 'number') {
    const left = body.attempts_left;
    lines.push(
      left > 0
        ? `You have ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
        : 'No attempts are left for this code: press "Send code" for a new one.',
    );
  }
  return lines.join(' ');
}

/**
 * Brings what a press produced into view and gives it focus, so that a person on a phone sees
 * the answer rather than the top of the page: all of it when it fits the window, else its start.
 * `focus` is the element focused (a region gets tabindex=-1), `node` the one scrolled to.
 */
function reveal(node, focus = node) {
  if (focus.tabIndex < 0 && !focus.hasAttribute('tabindex')) focus.setAttribute('tabindex', '-1');
  focus.focus({ preventScroll: true });
  const margin = 16;
  node.style.scrollMarginTop = `${margin}px`;
  node.style.scrollMarginBottom = `${margin}px`;
  const fits = node.getBoundingClientRect().height + 2 * margin <= window.innerHeight;
  node.scrollIntoView({ block: fits ? 'nearest' : 'start' });
}

/**
 * A message of the API said to a person on a page: the sentences that tell a program which
 * member to send (`code`, `email`) are left out, since the page's own fields do that.
 */
function forPeople(message) {
  return String(message ?? '')
    .split(/(?<=\.)\s+/)
    .filter((sentence) => sentence && !sentence.includes('`'))
    .join(' ');
}

/** A date of the API (UTC) as a person reads it: 1 December 2026. */
const dayWords = (iso) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * What a person can do after a call was refused for its key or quota, from the API's own
 * `options` (a 402 lists only what applies: a key to get, the key to claim, packs on sale, the
 * monthly reset) or, for an unknown key (401), where to get one. Paying per call (x402) is for
 * programs, and left out here.
 */
function nextSteps(r) {
  if (r.status === 401)
    return [el('p', {}, 'Check the key in the field, or ', el('a', { href: '/keys/new' }, 'get a free key'), '.')];
  if (r.status !== 402) return [];
  const options = r.body.options ?? [];
  const packs = options.filter((o) => o.type === 'credits');
  const steps = [];
  for (const o of options) {
    if (o.type === 'generate_key') steps.push([el('a', { href: '/keys/new' }, 'Get a free key'), ' to go on.']);
    if (o.type === 'claim')
      steps.push([
        el('a', { href: '/claim' }, 'Claim this key'),
        ` with your e-mail address: it then has ${fmt(o.raises_limit_to)} requests a month.`,
      ]);
    if (o === packs[0]) {
      const cheapest = packs.reduce((a, b) => (b.price_usd < a.price_usd ? b : a));
      steps.push([
        el('a', { href: '/pricing' }, 'Buy a pack of requests'),
        ` (from $${cheapest.price_usd} for ${fmt(cheapest.credits)}), used once this month's are gone.`,
      ]);
    }
    if (o.type === 'wait') steps.push([`Or wait: this key's requests start again on ${dayWords(o.resets_at)}.`]);
  }
  return steps.length ? [el('ul', { class: 'next-steps' }, ...steps.map((parts) => el('li', {}, ...parts)))] : [];
}

/** What a key's plan means, in a sentence; only an anonymous key has a claim ahead of it. */
function tierSentence({ tier, limit }) {
  const monthly = limit === undefined ? '' : ` (${fmt(limit)} requests a month)`;
  if (tier === 'email') return `It was made with an e-mail address, so it already has what a claim gives${monthly}.`;
  if (tier === 'claimed') return `It is claimed already${monthly}.`;
  if (tier === 'pro') return `It is a Pro key${monthly}.`;
  if (tier === 'credits') return 'It is a prepaid key: each call draws on its credits.';
  return `Its plan is ${tier}.`;
}

/** The "Copy" button: the clipboard when allowed, else the text selected for Ctrl+C. */
function copyButton(text, node) {
  $('copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      $('copy-status').textContent = 'Copied to the clipboard.';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(node);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      $('copy-status').textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  });
}

const pages = {
  qr: qrPage,
  checkout() {
    const code = document.querySelector('.secret code');
    if (code) copyButton(() => code.textContent, code);
    if ($('pending')) pollCheckout();
  },

  index() {
    if (new URLSearchParams(location.search).get('checkout') === 'cancelled') {
      notice(
        $('page-notice'),
        'good',
        'Checkout cancelled: nothing was charged.',
        el('p', {}, el('a', { href: '/pricing' }, 'Back to pricing')),
      );
    }
    const form = $('validate-form');
    const out = $('validate-result');
    fillKey($('api-key'));
    // Set on arriving by "Make the first call": its answer and next step are brought into view.
    let revealAnswer = false;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const iban = $('iban').value.trim();
      if (!iban) {
        notice(out, 'bad', 'Type an IBAN first.');
        return;
      }
      // Optional: with a key the call counts on that key (its first call makes it claimable).
      const key = readKey($('api-key'), out, { optional: true });
      if (key === null) return;
      busy(form.querySelector('button[type=submit]'), async () => {
        const r = await api('POST', '/v1/iban/validate', { body: { iban }, key: key || undefined });
        if (r.status !== 200) {
          notice(
            out,
            'bad',
            r.body.cause?.reason === 'trial_exhausted'
              ? "Today's free validations are used up."
              : 'Could not validate.',
            r.body.message,
            ...nextSteps(r),
          );
          return;
        }
        if (key) session.keep(key);
        const a = r.body;
        // A valid IBAN whose bank no register lists is not a green light: the person is told so.
        const unlisted = a.valid && !a.bank;
        const details = el('dl', { class: 'facts' });
        facts(details, [
          ['IBAN', a.formatted],
          ['Country', a.country ? `${a.country.name} (${a.country.code})` : 'unknown'],
          [
            'Bank',
            a.bank
              ? [a.bank.name, a.bank.city].filter(Boolean).join(', ') || undefined
              : unlisted
                ? `not found in the loaded registers${a.bban?.bank_code ? ` (bank code ${a.bban.bank_code})` : ''}`
                : undefined,
          ],
          ['BIC', a.bank?.bic],
          ['SEPA', a.sepa ? (a.sepa.member ? `yes (${a.sepa.schemes.join(', ')})` : 'no') : undefined],
          ['Source', a.bank ? `${a.bank.source}${a.bank.as_of ? `, ${a.bank.as_of}` : ''}` : undefined],
        ]);
        const errors = a.errors?.length ? el('ul', {}, ...a.errors.map((x) => el('li', {}, x.message))) : null;
        const trial = a.trial
          ? el(
              'p',
              { class: 'small muted' },
              `${a.trial.calls_left_today} free validations left today. `,
              el('a', { href: '/keys/new' }, 'Get a key'),
              ' for more.',
            )
          : null;
        const keyed = key ? await keyedNote(key, r.headers.get('x-quota-remaining')) : null;
        notice(
          out,
          a.valid ? (unlisted ? 'warn' : 'good') : 'bad',
          a.valid
            ? unlisted
              ? ['Valid IBAN', el('span', { class: 'qualifier' }, ` · ${UNLISTED}`)]
              : 'Valid IBAN'
            : 'Not a valid IBAN',
          unlisted
            ? 'Its check digits and structure are right, but no bank directory loaded here lists its bank: confirm the IBAN with the payee before you pay.'
            : null,
          errors,
          suggestionList(a),
          details,
          trial,
          keyed,
        );
      }).then(() => {
        if (!revealAnswer) return;
        revealAnswer = false;
        reveal(out);
      });
    });

    /** Each suggestion in print form with its bank, a button that validates it. */
    const suggestionList = (a) => {
      const list = a.suggestion_details ?? a.suggestions.map((iban) => ({ iban, formatted: iban, bank: undefined }));
      if (!list.length) return null;
      return el(
        'div',
        { class: 'suggestions' },
        el('p', {}, list.length === 1 ? 'Did you mean this IBAN?' : 'Did you mean one of these?'),
        el(
          'ul',
          {},
          ...list.map((s) => {
            const bank = s.bank === undefined ? null : (s.bank?.name ?? (s.bank ? 'bank without a name' : UNLISTED));
            const button = el(
              'button',
              { type: 'button', class: `suggestion secondary${s.bank === null ? ' unlisted' : ''}` },
              el('span', { class: 'mono' }, s.formatted),
              bank ? el('span', { class: 'bank' }, bank) : null,
            );
            button.addEventListener('click', () => {
              $('iban').value = s.formatted;
              form.requestSubmit();
            });
            return el('li', {}, button);
          }),
        ),
      );
    };

    /** What the call did to the key, and the next step: a claim only when one would succeed. */
    const keyedNote = async (key, remaining) => {
      const state = await claimState(key);
      const counted = `Counted on your key ${key.slice(0, 8)}…${remaining === null ? '' : `: ${fmt(remaining)} requests left`}.`;
      const usage = el('a', { href: '/usage' }, 'see its usage');
      if (state?.ready)
        return el(
          'div',
          { class: 'next-step' },
          el(
            'p',
            { class: 'small' },
            counted,
            ` Its first call is made: claim it with an e-mail address for ${fmt(state.claim.raises_limit_to)} requests a month, or `,
            usage,
            '.',
          ),
          el('p', { class: 'row' }, el('a', { class: 'button', href: '/claim' }, 'Claim it')),
        );
      if (state && state.tier !== 'anonymous')
        return el(
          'p',
          { class: 'small muted' },
          `${counted} ${tierSentence(state)} There is nothing to claim: `,
          usage,
          '.',
        );
      return el('p', { class: 'small muted' }, counted, ' ', el('a', { href: '/usage' }, 'See its usage'), '.');
    };

    // Arrived by "Make the first call" on /keys/new: the key of this tab validates an example.
    if (location.hash === '#first-call') {
      history.replaceState(null, '', location.pathname);
      if (session.key() && $('api-key').value.trim() === session.key()) {
        $('iban').value = EXAMPLE_IBAN;
        revealAnswer = true;
        form.requestSubmit();
      }
    }
  },

  'keys-new'() {
    const form = $('create-form');
    const err = $('create-error');
    let secret = null;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const email = $('email').value.trim();
      const code = $('code').value.replace(/\s+/g, '');
      const body = { source: 'web' };
      if (email) body.email = email;
      if (email && !$('code-field').hidden && code) {
        if (!/^\d{6}$/.test(code)) {
          notice(err, 'bad', 'Type the 6-digit code from the mail, or empty the field to have a new one sent.');
          $('code').focus();
          return;
        }
        body.code = code;
      }
      busy(form.querySelector('button[type=submit]'), async () => {
        const r = await api('POST', '/v1/keys/generate', { body });
        if (r.status === 403 && r.body.error === 'verification_required') {
          $('code-field').hidden = false;
          notice(
            err,
            'good',
            'Check your mail.',
            forPeople(r.body.message),
            'Type the code in the Code field and press "Create key" again.',
          );
          $('code').focus();
          return;
        }
        if (r.status !== 201) {
          notice(
            err,
            'bad',
            'No key was created.',
            explain(r.body),
            // The network's keys for today are made: what a person can do instead. A pack is
            // offered only when this server sells one (the page says whether a rail is on).
            r.body.error === 'key_creation_limit'
              ? el(
                  'p',
                  {},
                  'Use a key you already have (',
                  el('a', { href: '/usage' }, 'see its usage'),
                  ' or ',
                  el('a', { href: '/claim' }, 'claim it'),
                  ...(form.dataset.packs === 'on'
                    ? ['), or ', el('a', { href: '/pricing' }, 'buy a credit pack'), '.']
                    : ['), or come back for a new key on the next day (UTC).']),
                )
              : null,
          );
          return;
        }
        err.replaceChildren();
        secret = r.body.api_key;
        session.keep(secret);
        // Only an anonymous key has a claim ahead of it.
        $('claim-after').hidden = r.body.tier !== 'anonymous';
        form.hidden = true;
        $('secret').textContent = secret;
        facts($('created-facts'), [
          ['Prefix', r.body.key_prefix],
          ['Tier', r.body.tier],
          ['Requests', `${fmt(r.body.monthly_limit)} a month`],
          ['E-mail', r.body.email],
        ]);
        $('created-message').textContent = [r.body.notice, r.body.message].filter(Boolean).join(' ');
        $('created').hidden = false;
        $('created').focus();
      });
    });
    copyButton(() => secret, $('secret'));
  },

  claim() {
    const out = $('claim-result');
    // The key of this tab, if it can be claimed; a claimed key is never offered a claim.
    const carried = session.key();
    if (carried) {
      claimState(carried).then((state) => {
        if (!state || $('api-key').value.trim()) return;
        const prefix = `${carried.slice(0, 8)}…`;
        if (!state.claim) {
          notice(
            out,
            'info',
            `Your key ${prefix} has nothing to claim.`,
            tierSentence(state),
            el('p', {}, el('a', { href: '/usage' }, 'See its usage')),
          );
          return;
        }
        $('api-key').value = carried;
        if (state.ready)
          notice(out, 'info', `Your key ${prefix} is filled in.`, 'Give your e-mail address and press "Send code".');
        if (!state.ready)
          notice(
            out,
            'info',
            `Your key ${prefix} has made no call yet.`,
            'A key is claimed after its first call.',
            el('p', { class: 'row' }, el('a', { class: 'button', href: '/#first-call' }, 'Make the first call')),
          );
      });
    }
    const send = async (withCode) => {
      const key = readKey($('api-key'), out);
      if (!key) return;
      const email = $('email').value.trim();
      if (!email) {
        notice(out, 'bad', 'Type your e-mail address first.');
        $('email').focus();
        return;
      }
      const body = { email };
      if (withCode) {
        body.code = $('code').value.replace(/\s+/g, '');
        if (!/^\d{6}$/.test(body.code)) {
          notice(out, 'bad', 'Type the 6-digit code from the mail first.');
          $('code').focus();
          return;
        }
      }
      const r = await api('POST', '/v1/keys/claim', { key, body });
      if (r.status === 202) {
        $('code-step').hidden = false;
        const minutes = r.body.expires_in_minutes;
        notice(
          out,
          'good',
          'Code sent.',
          forPeople(r.body.message),
          `Type it in the Code field${typeof minutes === 'number' ? ` within ${minutes} minutes` : ''}, then press "Claim".`,
        );
        $('code').focus();
        return;
      }
      if (r.status === 200) {
        session.keep(key);
        $('code-step').hidden = true;
        notice(
          out,
          'good',
          'Your key is claimed.',
          `It now has ${fmt(r.body.limit)} requests a month; ${fmt(r.body.used)} used so far this month. The key itself has not changed.`,
          el('p', {}, el('a', { href: '/usage' }, 'See your usage')),
        );
        return;
      }
      notice(out, 'bad', withCode ? 'Not claimed.' : 'No code was sent.', explain(r.body));
    };
    $('claim-form').addEventListener('submit', (e) => {
      e.preventDefault();
      busy($('send-code'), () => send(false));
    });
    $('claim').addEventListener('click', () => busy($('claim'), () => send(true)));
    $('code').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        $('claim').click();
      }
    });
  },

  usage() {
    const err = $('usage-error');
    let key = null;
    // The chart is drawn at the width it has, and again when that width changes (a phone turned).
    let report = null;
    let drawnWidth = 0;
    const drawChart = (r) => {
      report = r;
      drawnWidth = $('chart').clientWidth;
      chart($('chart'), r);
    };
    new ResizeObserver(() => {
      if (report && $('chart').clientWidth !== drawnWidth) drawChart(report);
    }).observe($('chart'));
    const show = async () => {
      const asked = key;
      const [u, d] = await Promise.all([
        api('GET', '/v1/keys/usage', { key }),
        api('GET', '/v1/keys/usage/daily', { key }),
      ]);
      // Another key was asked for meanwhile: its answer is the one to show.
      if (key !== asked) return;
      if (u.status !== 200) {
        $('usage').hidden = true;
        notice(err, 'bad', 'No usage to show.', explain(u.body));
        return;
      }
      err.replaceChildren();
      session.keep(key);
      const a = u.body;
      $('usage-prefix').textContent = `${a.key_prefix}…`;
      $('used').textContent = fmt(a.used);
      $('limit').textContent = fmt(a.limit);
      $('remaining').textContent = fmt(a.remaining);
      $('meter-fill').style.width = `${Math.min(100, a.limit ? (100 * a.used) / a.limit : 0)}%`;
      const period =
        a.basis === 'monthly'
          ? `${a.month} (resets on the 1st, UTC)`
          : a.basis === 'lifetime'
            ? 'the life of the key (no reset)'
            : 'prepaid credits (never expire)';
      facts($('usage-facts'), [
        ['Tier', a.tier],
        ['Basis', a.basis],
        ['Period', period],
      ]);
      if (d.status === 200) drawChart(d.body);
      const actions = $('usage-actions');
      actions.replaceChildren();
      // A claim is offered only when it would succeed: an anonymous key after its first call.
      if (a.claim?.first_call_made)
        actions.append(
          el(
            'p',
            {},
            'This key is anonymous. ',
            el('a', { href: '/claim' }, `Claim it for ${fmt(a.claim.raises_limit_to)} requests a month`),
            '.',
          ),
        );
      else if (a.claim)
        actions.append(
          el(
            'p',
            {},
            'This key is anonymous and has made no call yet. ',
            el('a', { href: '/#first-call' }, 'Make its first call'),
            `, then claim it for ${fmt(a.claim.raises_limit_to)} requests a month.`,
          ),
        );
      // The key the card's buttons act on: the one shown, then the new one after a rotation.
      const card = { key: asked };
      actions.append(rotateCard(card));
      if (a.tier === 'pro') {
        const cancel = el('button', { type: 'button', class: 'danger' }, 'Cancel Pro');
        const out = el('div', { 'aria-live': 'polite' });
        cancel.addEventListener('click', () =>
          busy(cancel, async () => {
            if (!cancel.dataset.confirm) {
              cancel.dataset.confirm = '1';
              cancel.textContent = 'Confirm: cancel Pro at the end of the period';
              return;
            }
            const r = await api('POST', '/v1/card/cancel', { key: card.key });
            if (r.status !== 200) {
              notice(out, 'bad', 'Pro was not cancelled.', explain(r.body));
              return;
            }
            cancel.hidden = true;
            const until = r.body.ends_at ? dayWords(r.body.ends_at) : 'the end of the period you paid for';
            notice(
              out,
              'good',
              'Pro is cancelled.',
              `It will not renew. The key keeps Pro until ${until}, then returns to its free plan. Nothing else changes.`,
            );
          }),
        );
        actions.append(
          el(
            'div',
            { class: 'card' },
            el('h3', {}, 'Pro subscription'),
            el(
              'p',
              { class: 'muted' },
              'Cancelling stops renewal: Pro runs to the end of the period you paid for, then the key returns to its free plan.',
            ),
            cancel,
            out,
          ),
        );
      }
      $('usage').hidden = false;
    };
    /**
     * Rotate: a new secret for the same quota, shown once; the old one stops working at once.
     * `card.key`: the key whose usage the card is under, which another key typed into the field
     * meanwhile does not change.
     */
    const rotateCard = (card) => {
      const rotate = el('button', { type: 'button', class: 'secondary' }, 'Rotate key');
      const out = el('div', { 'aria-live': 'polite' });
      rotate.addEventListener('click', () =>
        busy(rotate, async () => {
          if (!rotate.dataset.confirm) {
            rotate.dataset.confirm = '1';
            rotate.textContent = 'Confirm: rotate now (the current key stops working)';
            return;
          }
          const r = await api('POST', '/v1/keys/rotate', { key: card.key });
          if (r.status !== 200) {
            notice(out, 'bad', 'The key was not rotated.', explain(r.body));
            return;
          }
          if (key === card.key) {
            key = r.body.api_key;
            session.keep(key);
            $('api-key').value = '';
          }
          card.key = r.body.api_key;
          rotate.hidden = true;
          const secret = el('code', { id: 'rotated-secret' }, r.body.api_key);
          const copy = el('button', { type: 'button', id: 'copy' }, 'Copy');
          const status = el('span', { id: 'copy-status', class: 'muted small', 'aria-live': 'polite' });
          notice(
            out,
            'good',
            `New key ${r.body.key_prefix}… (replaces ${r.body.previous_key_prefix}…)`,
            el('p', { class: 'secret' }, secret),
            el('p', { class: 'row' }, copy, ' ', status),
            r.body.message,
          );
          copyButton(() => r.body.api_key, secret);
          $('usage-prefix').textContent = `${r.body.key_prefix}…`;
        }),
      );
      return el(
        'div',
        { class: 'card section' },
        el('h3', {}, 'Rotate this key'),
        el(
          'p',
          { class: 'muted' },
          'Rotating gives a new secret for the same quota and counters. The current key stops working at once: update your software first.',
        ),
        rotate,
        out,
      );
    };
    $('usage-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const asked = readKey($('api-key'), err);
      // Another key's card is put away at once: its buttons act on the key it shows, not this one.
      if (asked !== key) $('usage').hidden = true;
      key = asked;
      if (key) busy($('usage-form').querySelector('button'), show);
    });
    // The key of this tab: its usage at once, without typing it again.
    if (fillKey($('api-key'))) $('usage-form').requestSubmit();
  },

  docs() {
    // Tabs: one example language shown at a time; arrows move between them (WAI-ARIA tabs).
    for (const list of document.querySelectorAll('[role="tablist"]')) {
      const tabs = [...list.querySelectorAll('[role="tab"]')];
      const select = (tab) => {
        for (const t of tabs) {
          const on = t === tab;
          t.setAttribute('aria-selected', String(on));
          t.tabIndex = on ? 0 : -1;
          $(t.getAttribute('aria-controls')).hidden = !on;
        }
      };
      for (const [i, tab] of tabs.entries()) {
        tab.addEventListener('click', () => select(tab));
        tab.addEventListener('keydown', (e) => {
          const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
          if (!step) return;
          const next = tabs[(i + step + tabs.length) % tabs.length];
          select(next);
          next.focus();
        });
      }
    }
    for (const button of document.querySelectorAll('.copy-code')) {
      button.addEventListener('click', async () => {
        const code = button.parentElement.querySelector('code');
        // Said beside the button, whose name stays "Copy …" (its visible text is part of its name).
        const state = button.parentElement.querySelector('.copy-state');
        try {
          await navigator.clipboard.writeText(code.textContent);
          state.textContent = 'Copied';
        } catch {
          const range = document.createRange();
          range.selectNodeContents(code);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          state.textContent = 'Selected: press Ctrl+C';
        }
      });
    }
    // Try it: the request goes to this service (a relative URL, whatever origin the page has),
    // with the key typed above in the Authorization header only.
    fillKey($('api-key'));
    // The calls that change a key (each box of such a route says so in data-confirm), matched by
    // the method and path a box actually sends: a path typed into another route's box asks too.
    const asking = [...document.querySelectorAll('.try[data-confirm]')].map((box) => ({
      method: box.dataset.method,
      path: routePattern(box.dataset.route),
      confirm: box.dataset.confirm,
    }));
    const confirmOf = (method, path) =>
      asking.find((a) => a.method === method && a.path.test(sentPath(path)))?.confirm ?? null;
    for (const box of document.querySelectorAll('.try')) {
      const send = box.querySelector('.try-send');
      const out = box.querySelector('.try-result');
      const pathField = box.querySelector('.try-path');
      const label = send.textContent;
      const disarm = () => {
        delete send.dataset.armed;
        send.textContent = label;
      };
      // A confirmation is for the request it named: another path asks again.
      pathField.addEventListener('input', disarm);
      send.addEventListener('click', () =>
        busy(send, async () => {
          const key = readKey($('api-key'), out, { optional: true });
          if (key === null) return;
          const path = pathField.value.trim();
          if (!path.startsWith('/') || path.startsWith('//')) {
            disarm();
            notice(out, 'bad', 'The path must start with a single /, as in /v1/iban/validate.');
            return;
          }
          // A call that changes the key asks first, as /usage does before a rotation.
          const request = `${box.dataset.method} ${path}`;
          const confirm = confirmOf(box.dataset.method, path);
          if (confirm && send.dataset.armed !== request) {
            send.dataset.armed = request;
            send.textContent = confirm;
            return;
          }
          disarm();
          const bodyField = box.querySelector('.try-body');
          let body;
          if (bodyField?.value.trim()) {
            try {
              body = JSON.parse(bodyField.value);
            } catch {
              notice(out, 'bad', 'The body is not valid JSON.', 'Check the quotes and commas, then send again.');
              bodyField.focus();
              return;
            }
          }
          const r = await api(box.dataset.method, path, { key: key || undefined, body });
          if (key && r.status >= 200 && r.status < 300) session.keep(key);
          // A new key (a rotation, a generated key) replaces the one in the field: the old one may be dead.
          const fresh = typeof r.body.api_key === 'string' && KEY_SHAPE.test(r.body.api_key) ? r.body.api_key : null;
          if (fresh) {
            $('api-key').value = fresh;
            session.keep(fresh);
          }
          const quota = ['x-quota-used', 'x-quota-limit', 'x-quota-remaining']
            .map((h) => (r.headers?.get(h) == null ? '' : `${h}: ${r.headers.get(h)}`))
            .filter(Boolean);
          out.replaceChildren(
            el('p', { class: 'status' }, `${r.status === 0 ? 'No answer' : `Answer ${r.status}`}`),
            ...(fresh
              ? [
                  el(
                    'p',
                    { class: 'small' },
                    `The new key ${fresh.slice(0, 8)}… is now in the API key field above; keep it.`,
                  ),
                ]
              : []),
            ...(quota.length ? [el('p', { class: 'small muted' }, quota.join(' · '))] : []),
            // no answer came: the page's own words, not a JSON body the service never sent
            r.status === 0
              ? el('p', {}, r.body.message)
              : el(
                  'div',
                  { class: 'example' },
                  el(
                    'pre',
                    { tabindex: '0', 'aria-label': `Answer ${r.status}` },
                    el('code', {}, JSON.stringify(r.body, null, 2)),
                  ),
                ),
          );
        }),
      );
    }
  },

  pricing() {
    const out = $('pricing-result');
    // the tab's key, so that a person coming from /usage buys for the key they hold
    if ($('api-key')) fillKey($('api-key'));
    for (const button of document.querySelectorAll('button[data-product]')) {
      button.addEventListener('click', () =>
        busy(button, async () => {
          const typed = $('api-key')?.value.trim();
          const key = typed ? readKey($('api-key'), out) : undefined;
          if (key === null) return;
          const r = await api('POST', '/v1/card/checkout', {
            key,
            body: { product: button.dataset.product },
            cookies: true,
          });
          if (r.status === 201 && r.body.checkout_url) {
            notice(out, 'good', 'Opening the secure card checkout…');
            window.location.assign(r.body.checkout_url);
          } else if (r.status === 409 && r.body.error === 'checkout_already_open' && r.body.checkout_url) {
            // one Pro checkout per key: a second click or tab goes on with the one already open
            notice(out, 'good', 'A checkout for this key is already open: going back to it…');
            window.location.assign(r.body.checkout_url);
          } else {
            notice(out, 'bad', 'The checkout could not start.', r.body.message);
            out.scrollIntoView({ block: 'nearest' });
          }
        }),
      );
    }
  },
};

/**
 * The path a request to `path` reaches, compared loosely: dot segments resolved (as fetch
 * does), percent-escapes decoded (as the router does), and repeated or trailing slashes and
 * letter case ignored, so that a spelling of a route that changes a key asks rather than slips by.
 */
function sentPath(path) {
  let p = new URL(path, location.origin).pathname;
  try {
    p = decodeURIComponent(p);
  } catch {
    // A malformed escape: compared as written.
  }
  return p
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/+$/, '$1')
    .toLowerCase();
}

/** A documented path (`/v1/bic/{code}`) as a pattern of the paths sent to it. */
function routePattern(route) {
  const parts = String(route)
    .toLowerCase()
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/**
 * /qr: the payment's fields, each error of the API shown beside the field it names
 * (`errors[].field`), and the code drawn again a moment after the typing stops: each drawing is
 * one request on the key typed here, so an unchanged payment is not drawn twice.
 */
function qrPage() {
  const form = $('qr-form');
  const out = $('qr-result');
  fillKey($('api-key'));
  const inputs = [...form.querySelectorAll('[data-field]')];
  let drawn = '';
  let timer = 0;
  let current = null;

  // The currency follows the IBAN (CHF for CH or LI, EUR otherwise, as `mod97 qr` does; EUR
  // for an EPC code) until the person picks one: a Swiss payee's code is right at first sight.
  let currencyPicked = false;
  $('qr-currency').addEventListener('change', () => {
    currencyPicked = true;
  });
  const followIban = () => {
    if (currencyPicked) return;
    const swiss = $('qr-standard').value !== 'epc' && /^\s*(CH|LI)/i.test($('qr-iban').value);
    $('qr-currency').value = swiss ? 'CHF' : 'EUR';
  };
  $('qr-iban').addEventListener('input', followIban);
  $('qr-standard').addEventListener('change', followIban);

  const body = () => {
    const payment = { creditor: {}, currency: $('qr-currency').value };
    const address = {};
    for (const input of inputs) {
      const value = input.value.trim();
      const path = input.dataset.field.split('.');
      if (!value || path[0] === 'currency') continue;
      if (path[1] === 'address') address[path[2]] = value;
      else if (path[0] === 'creditor') payment.creditor[path[1]] = value;
      else payment[path[0]] = value;
    }
    if (Object.keys(address).length) payment.creditor.address = address;
    return payment;
  };

  const keyField = $('api-key');
  const clearErrors = () => {
    for (const p of form.querySelectorAll('.field-error')) {
      p.hidden = true;
      p.textContent = '';
    }
    for (const input of [keyField, ...inputs]) input.removeAttribute('aria-invalid');
    for (const group of form.querySelectorAll('fieldset')) group.classList.remove('invalid');
    own.clear();
  };

  // What the page tells before asking the API (a field left empty, a key of the wrong shape),
  // beside its field as the API's errors are; gone once that field no longer has the fault.
  const own = new Set();
  const ownError = (input, message) => {
    const p = $(`err-${input.id}`);
    p.hidden = false;
    p.replaceChildren(...inline(message));
    input.setAttribute('aria-invalid', 'true');
    own.add(input);
  };
  const clearOwn = (input) => {
    own.delete(input);
    const p = $(`err-${input.id}`);
    p.hidden = true;
    p.textContent = '';
    input.removeAttribute('aria-invalid');
  };

  /** After a press of "Draw the code": the first field at fault, else the code or what went wrong. */
  const showOutcome = () => {
    const fault = form.querySelector('[aria-invalid="true"], fieldset.invalid');
    if (!fault) reveal(out.closest('section'), out);
    else if (fault.matches('fieldset')) reveal(fault, fault.querySelector('input'));
    else reveal(fault.closest('.field') ?? fault, fault);
  };

  /** The input an error's field names, or its group (`creditor.address`), or none. */
  const placeOf = (field) => {
    const input = inputs.find((i) => i.dataset.field === field);
    if (input) return { input, message: $(`err-${input.id}`) };
    const group = form.querySelector(`fieldset[id="group-${field}"]`);
    if (group) return { group, message: $(`err-${field}`) };
    return null;
  };

  /** The IBAN's or the reference's own errors, where the check only points to them. */
  const detail = (error, check) => {
    const own =
      error.code === 'iban_invalid'
        ? check?.iban?.errors
        : error.code === 'reference_invalid'
          ? check?.reference?.errors
          : null;
    return own?.length ? own.map((e) => e.message).join(' ') : error.message;
  };

  const showErrors = (errors, check) => {
    const elsewhere = [];
    for (const error of errors) {
      const place = placeOf(error.field === 'scheme' ? 'standard' : error.field);
      if (!place) {
        elsewhere.push(error.message);
        continue;
      }
      place.message.hidden = false;
      place.message.append(place.message.textContent ? ' ' : '', ...inline(detail(error, check)));
      if (place.input) place.input.setAttribute('aria-invalid', 'true');
      else place.group.classList.add('invalid');
    }
    return elsewhere;
  };

  const draw = async ({ force = false } = {}) => {
    const payment = body();
    const key = keyField.value.trim();
    const malformed = key !== '' && !KEY_SHAPE.test(key);
    const faults = [
      key === '' && [keyField, 'Type your API key first. Each code drawn counts 1 request on it.'],
      malformed && [keyField, `That is not an API key. ${KEY_SHAPE_TEXT} Paste the whole key.`],
      !payment.creditor.name && [$('qr-name'), 'Type the name of whom is paid.'],
      !payment.creditor.iban && [$('qr-iban'), 'Type the IBAN to be paid.'],
    ].filter(Boolean);
    for (const input of own) if (!faults.some(([at]) => at === input)) clearOwn(input);
    if (faults.length) {
      // While typing, only a key of the wrong shape is said; "Draw the code" says every fault
      // and goes to the first.
      for (const [input, message] of faults) if (force || (input === keyField && malformed)) ownError(input, message);
      if (force) showOutcome();
      return;
    }
    const signature = JSON.stringify(payment);
    if (!force && signature === drawn) return;
    drawn = signature;
    const r = await api('POST', '/v1/payment/qr', { body: payment, key });
    if (r.status === 200) session.keep(key);
    if (JSON.stringify(body()) !== signature) return; // typed on meanwhile: the next drawing follows
    clearErrors();
    if (r.status !== 200) {
      $('qr-code').hidden = true;
      current = null;
      const elsewhere = r.body.error === 'payment_data_invalid' ? showErrors(r.body.errors ?? [], r.body.check) : [];
      notice(
        out,
        'bad',
        r.body.error === 'payment_data_invalid' ? 'This payment cannot be coded yet.' : 'Could not draw the code.',
        r.body.error === 'payment_data_invalid' ? 'See the fields marked in the form.' : r.body.message,
        ...elsewhere,
        ...nextSteps(r),
      );
      if (force) showOutcome();
      return;
    }
    current = { payment, answer: r.body, key };
    const svg = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(r.body.image.data)))}`;
    const standard = r.body.standard === 'epc' ? 'EPC QR code' : 'Swiss QR-bill code';
    $('qr-image').src = svg;
    $('qr-image').alt = `${standard} for ${payment.creditor.name}, ${payment.creditor.iban}`;
    $('download-svg').href = svg;
    $('qr-payload').textContent = r.body.payload;
    $('copy-status').textContent = '';
    $('qr-code').hidden = false;
    const remaining = r.headers.get('x-quota-remaining');
    notice(
      out,
      r.body.warnings?.length ? 'warn' : 'good',
      `${standard}, ready to scan`,
      // a warning does not stop the code: the remittance text left out, a BIC not the bank's
      ...(r.body.warnings ?? []).map((w) => w.message),
      remaining === null ? null : el('p', { class: 'small muted' }, `${fmt(remaining)} requests left on your key.`),
    );
    if (force) showOutcome();
  };

  form.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => draw(), 700);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(timer);
    busy(form.querySelector('button[type=submit]'), () => draw({ force: true }));
  });
  $('copy').addEventListener('click', async () => {
    if (!current) return;
    try {
      await navigator.clipboard.writeText(current.answer.payload);
      $('copy-status').textContent = 'Payload copied to the clipboard.';
    } catch {
      const range = document.createRange();
      range.selectNodeContents($('qr-payload'));
      $('qr-payload').closest('details').open = true;
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      $('copy-status').textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  });
  $('download-png').addEventListener('click', () => {
    if (!current) return;
    busy($('download-png'), async () => {
      const r = await api('POST', '/v1/payment/qr', {
        body: { ...current.payment, format: 'png' },
        key: current.key,
      });
      if (r.status !== 200) {
        $('copy-status').textContent = r.body.message;
        return;
      }
      const link = el('a', { href: `data:image/png;base64,${r.body.image.data}`, download: 'payment-qr.png' });
      document.body.append(link);
      link.click();
      link.remove();
      $('copy-status').textContent = 'PNG downloaded (1 request).';
    });
  });
}

/**
 * Stripe's confirmation usually arrives within seconds of the redirect: ask the API every few
 * seconds (the answer that carries the key is shown here, once), and stop after a minute with
 * what to do. `window.mod97CheckoutPoll` lets a test shorten the waits.
 */
function pollCheckout() {
  const { everyMs = 3000, forMs = 60000 } = window.mod97CheckoutPoll ?? {};
  const pending = $('pending');
  const session = new URLSearchParams(location.search).get('session_id') ?? '';
  const started = Date.now();
  const ask = async () => {
    const r = await api('GET', `/v1/card/success?session_id=${encodeURIComponent(session)}`, { cookies: true });
    if (r.status === 200 && r.body.api_key) return showPaidKey(r.body);
    if (r.status === 200) return notice(pending, 'good', 'Payment received.', r.body.message);
    if (r.status !== 202) return notice(pending, 'bad', 'The payment could not be confirmed here.', r.body.message);
    if (Date.now() - started + everyMs > forMs) {
      pending.hidden = true;
      notice(
        $('checkout-stopped'),
        // Not an error: a plain notice, calm.
        'info',
        'The payment is still being confirmed.',
        'This page has stopped checking. Reload it in a minute to see your key; if you paid and no key appears within an hour, write to the operator of this service with the checkout session shown in the address bar. You were charged at most once.',
      );
      return;
    }
    setTimeout(ask, everyMs);
  };
  setTimeout(ask, everyMs);
}

function showPaidKey(answer) {
  const section = $('paid-key');
  $('paid-key-secret').textContent = answer.api_key;
  facts($('paid-key-facts'), [
    ['Prefix', answer.key_prefix],
    ['Tier', answer.tier],
    [answer.basis === 'credits' ? 'Credits' : 'Requests a month', fmt(answer.limit)],
  ]);
  $('pending').hidden = true;
  $('checkout-message').textContent = answer.message;
  section.hidden = false;
  copyButton(() => answer.api_key, $('paid-key-secret'));
  section.focus();
}

/** Bars per day, drawn as SVG with attributes only (no inline styles, no HTML strings). */
function chart(target, report) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = (tag, attrs = {}) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    return n;
  };
  const days = report.days;
  // Drawn at the width it is shown at, so its text is the page's size at 360 px as at 1280 px.
  const W = Math.max(260, Math.round(target.clientWidth || 720));
  const H = W < 480 ? 180 : 220;
  const pad = { l: 40, r: 8, t: 12, b: 28 };
  // As many day labels as fit without touching (70 px apart), always the first and last.
  const labelEvery = Math.max(1, Math.ceil((days.length * 70) / (W - pad.l - pad.r)));
  const max = Math.max(1, ...days.map((d) => d.used));
  const step = (W - pad.l - pad.r) / Math.max(days.length, 1);
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    height: H,
    class: 'chart',
    role: 'img',
    'aria-label': `Daily usage from ${report.from} to ${report.to}: ${fmt(report.total)} calls in total, at most ${fmt(Math.max(0, ...days.map((d) => d.used)))} on one day.`,
  });
  const y = (v) => H - pad.b - ((H - pad.t - pad.b) * v) / max;
  root.append(svg('line', { class: 'axis', x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  for (const v of [0, max]) {
    const t = svg('text', { x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end' });
    t.textContent = fmt(v);
    root.append(t);
  }
  days.forEach((d, i) => {
    const h = H - pad.b - y(d.used);
    const bar = svg('rect', {
      class: 'bar',
      x: pad.l + i * step + step * 0.15,
      y: y(d.used),
      width: step * 0.7,
      height: Math.max(h, d.used ? 1 : 0),
      rx: 2,
    });
    const title = svg('title');
    title.textContent = `${d.day}: ${fmt(d.used)}`;
    bar.append(title);
    root.append(bar);
    const last = days.length - 1;
    if (i === 0 || i === last || (i % labelEvery === 0 && last - i >= labelEvery && i >= labelEvery)) {
      // The last label ends at the right edge, so it is never cut off.
      const label =
        i === last && i > 0
          ? svg('text', { x: W - pad.r, y: H - 8, 'text-anchor': 'end' })
          : svg('text', { x: pad.l + i * step + step / 2, y: H - 8, 'text-anchor': i === 0 ? 'start' : 'middle' });
      label.textContent = d.day.slice(5);
      root.append(label);
    }
  });
  const note = report.total === 0 ? el('p', { class: 'muted small' }, 'No calls yet in this period.') : null;
  target.replaceChildren(root, ...(note ? [note] : []));
}

pages[document.body.dataset.page]?.();
