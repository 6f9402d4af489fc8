// contrast: the designers' page. Plain JavaScript with no framework and no build step. Every
// request goes to this service's public API (described at /openapi.yaml); nothing else is
// fetched, so the page works offline and behind a firewall.
'use strict';

const byId = (id) => document.getElementById(id);

const state = {
  name: null,          // the palette's name
  served: false,       // the service holds a palette of that name: edits are proposals against it
  text: null,          // the document being edited, as text (edits splice values in place)
  original: null,      // the document as opened, for "Undo all edits"
  rows: new Map(),     // JSON pointer of a token's value -> its editor row
  proposal: null,      // the last audit answer (JSON)
  generation: 0,       // bumped by every edit; answers to older generations are dropped
  timer: null,
};

// ---------------------------------------------------------------------------------------------
// The API

async function api(method, path, { body, accept = 'application/json' } = {}) {
  const init = { method, headers: { Accept: accept } };
  if (body !== undefined) {
    init.body = body;
    init.headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, init);
  return { status: response.status, ok: response.ok, text: await response.text() };
}

function parseJSON(text) {
  try { return JSON.parse(text); } catch (error) { return null; }
}

const segment = (name) => encodeURIComponent(name);

// ---------------------------------------------------------------------------------------------
// Editing a JSON document in place: find the text of the value a JSON pointer names and
// replace only that, so the downloaded file differs from the original by the edited values
// alone (key order, spacing and comments-free formatting all kept).

function pointerSegments(pointer) {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function locate(text, pointer) {
  const path = pointerSegments(pointer);
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const fail = (what) => { throw new Error(`${pointer} not found in the document (${what} at character ${i})`); };
  function skipString() {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i));
  }
  function skipValue() {
    ws();
    const c = text[i];
    if (c === '"') { skipString(); return; }
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++; ws();
      if (text[i] === close) { i++; return; }
      for (;;) {
        if (c === '{') { ws(); skipString(); ws(); if (text[i] !== ':') fail('expected :'); i++; }
        skipValue(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === close) { i++; return; }
        fail(`expected , or ${close}`);
      }
    }
    const start = i;
    while (i < text.length && !',}] \t\r\n'.includes(text[i])) i++;
    if (i === start) fail('expected a value');
  }
  for (const key of path) {
    ws();
    const c = text[i];
    if (c !== '{' && c !== '[') fail(`expected an object or array for "${key}"`);
    const close = c === '{' ? '}' : ']';
    i++; ws();
    let found = false;
    for (let index = 0; text[i] !== close; index++) {
      let name = String(index);
      if (c === '{') { ws(); name = skipString(); ws(); if (text[i] !== ':') fail('expected :'); i++; }
      if (name === key) { found = true; break; }
      skipValue(); ws();
      if (text[i] === ',') { i++; ws(); } else if (text[i] !== close) fail(`expected , or ${close}`);
    }
    if (!found) fail(`no member "${key}"`);
  }
  ws();
  const start = i;
  skipValue();
  return [start, i];
}

function replaceAt(text, pointer, value) {
  const [start, end] = locate(text, pointer);
  return text.slice(0, start) + JSON.stringify(value) + text.slice(end);
}

function valueAt(text, pointer) {
  const [start, end] = locate(text, pointer);
  return parseJSON(text.slice(start, end));
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function setStatus(message) { byId('status').textContent = message; }

function plural(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// ---------------------------------------------------------------------------------------------
// Opening a palette

function servedNames() {
  return Array.from(document.querySelectorAll('.palette-list > li')).map((li) => li.dataset.palette);
}

async function openServed(name) {
  setStatus(`Opening ${name}…`);
  const answer = await api('GET', `/v1/palettes/${segment(name)}`);
  if (!answer.ok) {
    const problem = parseJSON(answer.text);
    setStatus(problem && problem.detail ? problem.detail : `The service answered ${answer.status}.`);
    return;
  }
  history.replaceState(null, '', `#palette=${segment(name)}`);
  await start(name, answer.text, true);
}

async function start(name, text, served) {
  state.name = name;
  state.served = served;
  state.text = text;
  state.original = text;
  state.proposal = null;
  state.rows = new Map();
  byId('editor').replaceChildren();
  byId('changes').replaceChildren();
  byId('audit-view').replaceChildren();
  const workbench = byId('workbench');
  workbench.hidden = false;
  const title = byId('workbench-title');
  title.textContent = served ? `Workbench: ${name}` : `Workbench: ${name} (brought by you)`;
  title.setAttribute('tabindex', '-1');
  await refresh();
  title.focus();
}

// ---------------------------------------------------------------------------------------------
// Re-auditing after every change

function scheduleRefresh() {
  state.generation++;
  clearTimeout(state.timer);
  byId('audit-view').classList.add('stale');
  state.timer = setTimeout(() => { refresh().catch(report); }, 200);
}

function report(error) {
  setStatus(`Something went wrong: ${error.message}`);
}

async function refresh() {
  const generation = ++state.generation;
  const body = state.text;
  // First resolve the tokens: the answer carries every problem (a bad color, an unknown alias)
  // with its JSON pointer, and the colors for the pickers.
  const tokens = await api('POST', '/v1/tokens', { body });
  if (generation !== state.generation) return;
  const listing = parseJSON(tokens.text);
  if (!tokens.ok || !listing) {
    const problem = parseJSON(tokens.text);
    setStatus(problem && problem.detail ? problem.detail : `The service answered ${tokens.status}.`);
    return;
  }
  if (state.rows.size === 0) buildEditor(listing);
  updateEditor(listing);
  if (listing.problems.length > 0) {
    byId('audit-view').classList.add('stale');
    setStatus(`${plural(listing.problems.length, 'problem')} in the palette: fix ${listing.problems.length === 1 ? 'it' : 'them'} to see the audit again.`);
    renderProblems(byId('changes'), listing.problems);
    return;
  }
  const path = state.served ? `/v1/palettes/${segment(state.name)}/proposals` : '/v1/audit';
  const [json, html] = await Promise.all([api('POST', path, { body }), api('POST', path, { body, accept: 'text/html' })]);
  if (generation !== state.generation) return;
  const answer = parseJSON(json.text);
  if (!json.ok || !answer || !html.ok) {
    setStatus(answer && answer.detail ? answer.detail : `The service answered ${json.status}.`);
    return;
  }
  state.proposal = answer;
  renderChanges(answer);
  renderAudit(html.text);
}

// ---------------------------------------------------------------------------------------------
// The token editor

function buildEditor(listing) {
  const editor = byId('editor');
  editor.replaceChildren();
  state.rows = new Map();
  let counter = 0;
  for (const theme of listing.themes) {
    const fieldset = el('fieldset', { 'data-theme': theme.name },
      el('legend', { text: theme.extends ? `${theme.name} (extends ${theme.extends})` : theme.name }));
    for (const token of theme.tokens) {
      const id = `token-${counter++}`;
      const text = el('input', { type: 'text', id, value: token.value, spellcheck: 'false', autocomplete: 'off',
        'aria-describedby': `${id}-message`, 'data-pointer': token.pointer });
      const picker = el('input', { type: 'color', id: `${id}-picker`, 'aria-label': `${token.name} in ${theme.name}: pick a color` });
      const row = el('div', { class: 'token', 'data-token': token.name, 'data-pointer': token.pointer },
        el('label', { for: id, text: token.name }), picker, text,
        el('span', { class: 'message', id: `${id}-message`, role: 'status' }));
      if (token.assumed) row.append(el('span', { class: 'hint muted', text: `Assumed: ${token.assumed}` }));
      text.addEventListener('input', () => edit(row, text.value));
      picker.addEventListener('input', () => {
        const current = row.dataset.hex || '';
        // A translucent token keeps its alpha when its color is picked.
        const alpha = current.length === 9 ? current.slice(7) : '';
        text.value = picker.value + alpha;
        edit(row, text.value);
      });
      state.rows.set(token.pointer, row);
      fieldset.append(row);
    }
    if (theme.inherited.length > 0) {
      const names = theme.inherited.map((t) => t.name).join(', ');
      fieldset.append(el('p', { class: 'inherited muted', text: `Inherited: ${names}. Edit them where they are defined.` }));
    }
    editor.append(fieldset);
  }
}

function updateEditor(listing) {
  for (const theme of listing.themes) {
    for (const token of theme.tokens) {
      const row = state.rows.get(token.pointer);
      if (!row) continue;
      const [picker, text, message] = [row.querySelector('input[type=color]'), row.querySelector('input[type=text]'), row.querySelector('.message')];
      if (token.hex) {
        row.dataset.hex = token.hex;
        picker.value = token.hex.slice(0, 7);
      }
      message.textContent = token.problem || '';
      if (token.problem) text.setAttribute('aria-invalid', 'true'); else text.removeAttribute('aria-invalid');
      const before = JSON.stringify(valueAt(state.original, token.pointer));
      row.classList.toggle('changed', before !== JSON.stringify(valueAt(state.text, token.pointer)));
    }
  }
}

function edit(row, value) {
  state.text = replaceAt(state.text, row.dataset.pointer, value);
  row.classList.add('changed');
  scheduleRefresh();
}

// ---------------------------------------------------------------------------------------------
// What the change did: per theme, what regressed, what improved, what still fails

function renderChanges(answer) {
  const changes = byId('changes');
  const audit = state.served ? answer.audit : answer;
  const comparison = state.served ? answer.comparison : null;
  const palette = audit.palettes[0];
  const regressedKeys = new Set(comparison ? comparison.regressions.map((c) => c.key) : []);
  const sections = [];
  let regressions = 0, improvements = 0, failing = 0;
  for (const theme of palette.themes) {
    const inTheme = (c) => c.after.theme === theme.name;
    const regressed = comparison ? comparison.regressions.filter(inTheme) : [];
    const improved = comparison ? comparison.improvements.filter(inTheme) : [];
    const still = theme.results.filter((r) => r.verdict === 'fail' && !regressedKeys.has(`${palette.name}/${theme.name}/${r.id}`));
    regressions += regressed.length; improvements += improved.length; failing += still.length;
    const change = (c) => `${c.after.check}: ${c.before.ratio.toFixed(2)}:1 → ${c.after.ratio.toFixed(2)}:1 (${c.before.achieved} → ${c.after.achieved}${c.before.verdict !== c.after.verdict ? `, ${c.before.verdict} → ${c.after.verdict}` : ''})`;
    const section = el('section', { 'data-theme': theme.name, 'aria-label': `Theme ${theme.name}` }, el('h3', { text: `Theme ${theme.name}` }));
    const list = (title, cls, items) => {
      section.append(el('p', { text: `${title}: ${items.length}` }));
      if (items.length > 0) section.append(el('ul', { class: cls }, ...items.map((text) => el('li', { text }))));
    };
    if (comparison) {
      list('Regressed', 'regressed', regressed.map(change));
      list('Improved', 'improved', improved.map(change));
    }
    list(comparison ? 'Still failing' : 'Failing', 'failing', still.map((r) => `${r.id}: ${r.display}${r.required ? `, needs ${r.required}:1` : ''}`));
    sections.push(section);
  }
  changes.replaceChildren(...sections);
  const summary = comparison
    ? `${plural(regressions, 'regression')}, ${plural(improvements, 'improvement')}, ${failing} still failing, against the served palette ${palette.name}.`
    : `${palette.name}: ${audit.summary.fail} of ${audit.summary.checks} checks fail.`;
  setStatus(summary);
}

function renderProblems(container, problems) {
  const items = problems.map((p) => {
    const where = p.location ? ` (line ${p.location.line}, column ${p.location.column})` : '';
    return el('li', {}, el('code', { text: p.pointer || '/' }), `${where}: ${p.message}`);
  });
  container.replaceChildren(el('ul', { class: 'problems' }, ...items));
}

// ---------------------------------------------------------------------------------------------
// The audit itself, rendered by the service (the same renderer as the nightly report)

function renderAudit(html) {
  // The report's own style sheet is already part of /app.css; parsing its inline copy would
  // break this page's Content-Security-Policy (style-src 'self'), so it is left out.
  const page = new DOMParser().parseFromString(html.replace(/<style>[\s\S]*?<\/style>/, ''), 'text/html');
  const main = page.querySelector('main');
  const view = byId('audit-view');
  view.replaceChildren(...Array.from(main ? main.childNodes : []).map((node) => document.importNode(node, true)));
  view.classList.remove('stale');
  for (const fix of view.querySelectorAll('.fix[data-apply]')) {
    const changes = parseJSON(fix.dataset.apply) || [];
    const targets = changes.map((c) => c.token || c.pointer).join(' and ');
    fix.setAttribute('role', 'button');
    fix.setAttribute('tabindex', '0');
    fix.setAttribute('aria-label', `Apply ${changes.map((c) => c.value).join(' and ')} to ${targets}`);
    fix.title = `Apply to ${targets}`;
  }
}

function applyFix(fix) {
  const changes = parseJSON(fix.dataset.apply) || [];
  let text = state.text;
  try {
    for (const change of changes) text = replaceAt(text, change.pointer, change.value);
  } catch (error) {
    // A color written outside this document (in a checks file beside a tokens file).
    setStatus(`This fix changes a color that is not written in this document: ${error.message}.`);
    return;
  }
  state.text = text;
  for (const change of changes) {
    const row = state.rows.get(change.pointer);
    if (row) {
      row.querySelector('input[type=text]').value = change.value;
      row.classList.add('changed');
    }
  }
  setStatus(`Applied ${changes.map((c) => `${c.value} to ${c.token || c.pointer}`).join(' and ')}; auditing…`);
  byId('status').setAttribute('tabindex', '-1');
  byId('status').focus();
  clearTimeout(state.timer);
  refresh().catch(report);
}

// ---------------------------------------------------------------------------------------------
// Bring your own

async function auditBrought(text, filename) {
  const result = byId('byo-result');
  const area = byId('byo-text');
  if (!text.trim()) {
    result.replaceChildren(el('p', { text: 'Paste a palette or a tokens file first.' }));
    return;
  }
  const answer = await api('POST', '/v1/tokens', { body: text });
  const listing = parseJSON(answer.text);
  if (!answer.ok || !listing) {
    result.replaceChildren(el('p', { text: listing && listing.detail ? listing.detail : `The service answered ${answer.status}.` }));
    return;
  }
  if (listing.problems.length > 0 || !listing.palette) {
    area.setAttribute('aria-invalid', 'true');
    const what = filename ? `${filename} has` : 'The document has';
    result.replaceChildren(el('p', { text: `${what} ${plural(listing.problems.length, 'problem')}; each names its JSON path:` }));
    const list = el('div');
    renderProblems(list, listing.problems);
    result.append(list);
    return;
  }
  area.removeAttribute('aria-invalid');
  result.replaceChildren();
  const name = listing.palette;
  await start(name, text, servedNames().includes(name));
}

// ---------------------------------------------------------------------------------------------
// Wiring

function wire() {
  for (const link of document.querySelectorAll('a.open-palette')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      openServed(link.dataset.palette).catch(report);
    });
  }
  const view = byId('audit-view');
  view.addEventListener('click', (event) => {
    const fix = event.target.closest('.fix[data-apply]');
    if (fix) applyFix(fix);
  });
  view.addEventListener('keydown', (event) => {
    const fix = event.target.closest('.fix[data-apply]');
    if (fix && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      applyFix(fix);
    }
  });

  byId('download-palette').addEventListener('click', () => {
    download(`${state.name}.json`, state.text.endsWith('\n') ? state.text : `${state.text}\n`, 'application/json');
  });
  byId('download-audit-json').addEventListener('click', () => {
    if (!state.proposal) { setStatus('There is no audit to download until the palette\'s problems are fixed.'); return; }
    const audit = state.served ? state.proposal.audit : state.proposal;
    download(`${state.name}-audit.json`, `${JSON.stringify(audit, null, 2)}\n`, 'application/json');
  });
  byId('download-audit-md').addEventListener('click', async () => {
    const path = state.served ? `/v1/palettes/${segment(state.name)}/proposals` : '/v1/audit';
    const answer = await api('POST', path, { body: state.text, accept: 'text/markdown' });
    if (!answer.ok) { setStatus('There is no audit to download until the palette\'s problems are fixed.'); return; }
    download(`${state.name}-audit.md`, answer.text, 'text/markdown');
  });
  byId('revert').addEventListener('click', () => {
    state.text = state.original;
    state.rows = new Map();
    setStatus('All edits undone.');
    refresh().catch(report);
  });

  const area = byId('byo-text');
  byId('byo-audit').addEventListener('click', () => { auditBrought(area.value).catch(report); });
  area.addEventListener('paste', () => { setTimeout(() => { auditBrought(area.value).catch(report); }, 0); });
  byId('byo-file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    area.value = await file.text();
    auditBrought(area.value, file.name).catch(report);
  });
  const zone = byId('drop-zone');
  zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', async (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const file = event.dataTransfer.files[0];
    if (!file) return;
    area.value = await file.text();
    auditBrought(area.value, file.name).catch(report);
  });

  const match = /^#palette=(.+)$/.exec(location.hash);
  if (match) openServed(decodeURIComponent(match[1])).catch(report);
}

document.addEventListener('DOMContentLoaded', wire);
