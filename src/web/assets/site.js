// mod97 pages: a little script per page, no framework. A key typed or received stays in memory:
// it goes out only in the Authorization header, never in a URL, a body, a cookie or storage.
const $ = (id) => document.getElementById(id);

/** Builds an element; children are text or elements, never HTML strings. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

async function api(method, path, { key, body } = {}) {
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
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
  return { status: res.status, body: data };
}

function notice(target, kind, title, ...lines) {
  target.replaceChildren(
    el(
      'div',
      { class: `notice ${kind}`, role: kind === 'bad' ? 'alert' : 'status' },
      el('p', { class: 'status' }, title),
      ...lines.filter(Boolean).map((l) => (typeof l === 'string' ? el('p', {}, l) : l)),
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

const KEY_SHAPE = /^ifk_[0-9a-f]{64}$/;
function readKey(input, errorTarget) {
  const key = input.value.trim();
  if (!KEY_SHAPE.test(key)) {
    notice(
      errorTarget,
      'bad',
      'That is not an API key.',
      'A key starts with ifk_ followed by 64 letters and digits. Paste the whole key.',
    );
    input.focus();
    return null;
  }
  return key;
}

async function busy(button, run) {
  button.disabled = true;
  try {
    await run();
  } finally {
    button.disabled = false;
  }
}

const fmt = (n) => Number(n).toLocaleString('en-US');

/** A sentence a person understands, for each refusal of the keys routes. */
function explain(body, context = {}) {
  const reason = body.reason || body.cause?.reason;
  const m = {
    invalid_email: 'That does not look like an e-mail address. Check it and try again.',
    disposable_email: 'Addresses at throwaway or placeholder domains cannot be used. Please use an address you keep.',
    undeliverable_email:
      'That domain cannot receive mail (it has no mail server). Check the spelling or use another address.',
    unused_key: 'This key has not made a call yet. Use it once (validate an IBAN, for example), then claim it.',
    already_claimed: 'This key is already claimed: it already has the full free quota.',
    already_claimed_elsewhere: 'This address already holds a free key, or claimed another key in the last 24 hours.',
    claim_rate_limited:
      'Too many keys were claimed from your network today. Try again tomorrow; your key keeps working meanwhile.',
    verification_rate_limited: 'Too many codes were sent to this address today. Try again tomorrow.',
    verification_unavailable: 'We could not send the mail just now. Nothing was counted; try again in a minute.',
    key_creation_limit:
      'Your network has created the most free keys allowed today. Existing keys keep working; try again tomorrow.',
    rate_limited: 'This address already received a key today. Try again tomorrow.',
    invalid_api_key: 'That key is unknown, rotated or revoked. Check that you pasted the whole key.',
    missing_api_key: 'Paste your API key first.',
    not_subscribed: 'This key has no card subscription to cancel.',
    network: body.message,
  }[body.error];
  if (body.error === 'verification_failed') {
    if (reason === 'wrong_code') {
      const left = context.attemptsLeft;
      return left > 0
        ? `That code is not right. You have ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
        : 'That code is not right, and the code is now locked. Press "Send code" for a new one.';
    }
    if (reason === 'expired') return 'That code has expired (codes last 15 minutes). Press "Send code" for a new one.';
    if (reason === 'too_many_attempts')
      return 'Too many wrong codes were tried, so this code is locked. Press "Send code" for a new one.';
    if (reason === 'no_challenge') return 'There is no code waiting for this key and address. Press "Send code" first.';
  }
  return m || body.message || 'Something went wrong. Please try again.';
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
  checkout() {
    const code = document.querySelector('.secret code');
    if (code) copyButton(() => code.textContent, code);
    // Stripe's confirmation usually arrives within seconds of the redirect.
    if ($('pending')) setTimeout(() => location.reload(), 3000);
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
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const iban = $('iban').value.trim();
      if (!iban) {
        notice(out, 'bad', 'Type an IBAN first.');
        return;
      }
      busy(form.querySelector('button'), async () => {
        const r = await api('POST', '/v1/iban/validate', { body: { iban } });
        if (r.status !== 200) {
          notice(
            out,
            'bad',
            r.body.cause?.reason === 'trial_exhausted'
              ? "Today's free validations are used up."
              : 'Could not validate.',
            r.body.message,
            r.body.cause?.reason === 'trial_exhausted'
              ? el('p', {}, el('a', { href: '/keys/new' }, 'Get a free key'), ' to go on.')
              : null,
          );
          return;
        }
        const a = r.body;
        const details = el('dl', { class: 'facts' });
        facts(details, [
          ['IBAN', a.formatted],
          ['Country', a.country ? `${a.country.name} (${a.country.code})` : 'unknown'],
          ['Bank', a.bank ? [a.bank.name, a.bank.city].filter(Boolean).join(', ') || undefined : undefined],
          ['BIC', a.bank?.bic],
          ['SEPA', a.sepa ? (a.sepa.member ? `yes (${a.sepa.schemes.join(', ')})` : 'no') : undefined],
          ['Source', a.bank ? `${a.bank.source}${a.bank.as_of ? `, ${a.bank.as_of}` : ''}` : undefined],
        ]);
        const errors = a.errors?.length ? el('ul', {}, ...a.errors.map((x) => el('li', {}, x.message))) : null;
        const suggestions = a.suggestions?.length
          ? el('p', {}, 'Did you mean: ', ...a.suggestions.flatMap((s, i) => [i ? ', ' : '', el('code', {}, s)]))
          : null;
        const trial = a.trial
          ? el(
              'p',
              { class: 'small muted' },
              `${a.trial.calls_left_today} free validations left today. `,
              el('a', { href: '/keys/new' }, 'Get a key'),
              ' for more.',
            )
          : null;
        notice(
          out,
          a.valid ? 'good' : 'bad',
          a.valid ? 'Valid IBAN' : 'Not a valid IBAN',
          errors,
          suggestions,
          details,
          trial,
        );
      });
    });
  },

  'keys-new'() {
    const form = $('create-form');
    const err = $('create-error');
    let secret = null;
    let attemptsLeft = 5;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const email = $('email').value.trim();
      const code = $('code').value.trim();
      const body = { source: 'web' };
      if (email) body.email = email;
      if (email && !$('code-field').hidden && code) body.code = code;
      busy(form.querySelector('button[type=submit]'), async () => {
        const r = await api('POST', '/v1/keys/generate', { body });
        if (r.status === 403 && r.body.error === 'verification_required') {
          $('code-field').hidden = false;
          attemptsLeft = 5;
          notice(
            err,
            'good',
            'Check your mail.',
            `A key was created from your network recently, so we mailed a 6-digit code to ${email}. Type it in the Code field and press "Create key" again.`,
          );
          $('code').focus();
          return;
        }
        if (r.status !== 201) {
          if (r.body.reason === 'wrong_code') attemptsLeft = Math.max(attemptsLeft - 1, 0);
          notice(err, 'bad', 'No key was created.', explain(r.body, { attemptsLeft }));
          return;
        }
        err.replaceChildren();
        secret = r.body.api_key;
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
    let attemptsLeft = 5;
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
      if (withCode) body.code = $('code').value.trim();
      const r = await api('POST', '/v1/keys/claim', { key, body });
      if (r.status === 202) {
        attemptsLeft = 5;
        $('code-step').hidden = false;
        notice(
          out,
          'good',
          'Code sent.',
          `We mailed a 6-digit code to ${email}. It is valid for ${r.body.expires_in_minutes} minutes.`,
        );
        $('code').focus();
        return;
      }
      if (r.status === 200) {
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
      if (r.body.reason === 'wrong_code') attemptsLeft = Math.max(attemptsLeft - 1, 0);
      notice(out, 'bad', withCode ? 'Not claimed.' : 'No code was sent.', explain(r.body, { attemptsLeft }));
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
    const show = async () => {
      const [u, d] = await Promise.all([
        api('GET', '/v1/keys/usage', { key }),
        api('GET', '/v1/keys/usage/daily', { key }),
      ]);
      if (u.status !== 200) {
        $('usage').hidden = true;
        notice(err, 'bad', 'No usage to show.', explain(u.body));
        return;
      }
      err.replaceChildren();
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
      if (d.status === 200) chart($('chart'), d.body);
      const actions = $('usage-actions');
      actions.replaceChildren();
      if (a.claim)
        actions.append(
          el(
            'p',
            {},
            'This key is anonymous. ',
            el('a', { href: '/claim' }, `Claim it for ${fmt(a.claim.raises_limit_to)} requests a month`),
            '.',
          ),
        );
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
            const r = await api('POST', '/v1/card/cancel', { key });
            if (r.status !== 200) {
              notice(out, 'bad', 'Pro was not cancelled.', explain(r.body));
              return;
            }
            cancel.hidden = true;
            const until = r.body.ends_at
              ? new Date(r.body.ends_at).toLocaleDateString('en-GB', {
                  day: 'numeric',
                  month: 'long',
                  year: 'numeric',
                  timeZone: 'UTC',
                })
              : 'the end of the period you paid for';
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
    $('usage-form').addEventListener('submit', (e) => {
      e.preventDefault();
      key = readKey($('api-key'), err);
      if (key) busy($('usage-form').querySelector('button'), show);
    });
  },

  pricing() {
    const out = $('pricing-result');
    for (const button of document.querySelectorAll('button[data-product]')) {
      button.addEventListener('click', () =>
        busy(button, async () => {
          const typed = $('api-key')?.value.trim();
          const key = typed ? readKey($('api-key'), out) : undefined;
          if (key === null) return;
          const r = await api('POST', '/v1/card/checkout', { key, body: { product: button.dataset.product } });
          if (r.status === 201 && r.body.checkout_url) {
            notice(out, 'good', 'Opening the secure card checkout…');
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

/** Bars per day, drawn as SVG with attributes only (no inline styles, no HTML strings). */
function chart(target, report) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = (tag, attrs = {}) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    return n;
  };
  const days = report.days;
  const W = 720;
  const H = 220;
  const pad = { l: 40, r: 8, t: 12, b: 28 };
  const max = Math.max(1, ...days.map((d) => d.used));
  const step = (W - pad.l - pad.r) / Math.max(days.length, 1);
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
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
    if (i === 0 || i === days.length - 1 || (days.length > 10 && i % 7 === 0)) {
      const label = svg('text', { x: pad.l + i * step + step / 2, y: H - 8, 'text-anchor': 'middle' });
      label.textContent = d.day.slice(5);
      root.append(label);
    }
  });
  const note = report.total === 0 ? el('p', { class: 'muted small' }, 'No calls yet in this period.') : null;
  target.replaceChildren(root, ...(note ? [note] : []));
}

pages[document.body.dataset.page]?.();
