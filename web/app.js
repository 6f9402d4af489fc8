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
  objects: new Set(),  // pointers of values written as DTCG color objects: typed hex stays an object
  problems: 0,         // problems of the current text, from the last token listing
  proposal: null,      // the audit answer (JSON) for the current text; null while one is pending
  pending: null,       // the refresh in flight, if any
  generation: 0,       // bumped by every edit; answers to older generations are dropped
  opening: 0,          // bumped by every palette opened; older openings are dropped
  timer: null,
  brought: false,      // the text was pasted or dropped rather than opened from the list
  saved: null,         // the text last downloaded
  drafts: new Map(),   // served palette name -> {text, saved}: its edits, kept while others are open
};

// Remembers the current edits, so reopening a palette resumes them instead of losing them.
function keepDraft() {
  if (!state.served || state.brought) return;
  if (state.text === state.original) state.drafts.delete(state.name);
  else state.drafts.set(state.name, { text: state.text, saved: state.text === state.saved });
}

function hasUnsavedEdits() {
  return state.text !== null && state.text !== state.original && state.text !== state.saved;
}

// A brought document's edits are mirrored into the "Bring your own" text box, so opening a
// served palette does not lose them (auditing the box again resumes them).
function mirrorBrought() {
  if (!state.brought) return;
  byId('byo-text').value = state.text;
  state.broughtText = state.text;
  state.broughtUnsaved = state.text !== state.original && state.text !== state.saved;
}

// A text box reads CRLF line ends as LF; the document itself keeps them.
const normalized = (text) => text.replace(/\r\n?/g, '\n');
const boxHoldsBrought = () => typeof state.broughtText === 'string' && byId('byo-text').value === normalized(state.broughtText);

// Edits of a brought document not downloaded, still only in the text box.
const broughtEditsAtRisk = () => state.broughtUnsaved && boxHoldsBrought();

// ---------------------------------------------------------------------------------------------
// The API

async function api(method, path, { body, accept = 'application/json', type = 'application/json' } = {}) {
  const init = { method, headers: { Accept: accept } };
  if (body !== undefined) {
    init.body = body;
    init.headers['Content-Type'] = type;
  }
  const response = await fetch(path, init);
  return { status: response.status, ok: response.ok, text: await response.text() };
}

// The formats the service reads (GET /v1/formats, from its one registry): which file names
// are sent as text (a stylesheet) rather than JSON. Filled in by wire() before anything is read.
let formats = [];

function textFormatOf(filename) {
  const name = filename.toLowerCase();
  return formats.find((f) => f.postable && f.mediaTypes.length && !f.mediaTypes.includes('application/json')
    && f.suffixes.some((suffix) => name.endsWith(suffix)));
}

// A brought stylesheet (by its file name, or pasted text that is not JSON) is sent as CSS and
// audited as it is: its values are edited in the stylesheet, not here.
function isStylesheet(text, filename) {
  if (filename) return Boolean(textFormatOf(filename));
  return !/^\s*[[{]/.test(text) && /(:root|@theme|--[\w-]+\s*:)/.test(text);
}

// A file's name without the suffix its format names it by (tokens.json → tokens), as the CLI
// names a palette after its file.
function baseName(filename) {
  const name = filename.toLowerCase();
  const suffixes = formats.flatMap((f) => f.suffixes).concat(['.tokens.json']).sort((a, b) => b.length - a.length);
  const suffix = suffixes.find((s) => name.endsWith(s) && name.length > s.length);
  return suffix ? filename.slice(0, filename.length - suffix.length) : filename;
}

function bodyType() {
  return state.css ? 'text/css' : 'application/json';
}

function parseJSON(text) {
  try { return JSON.parse(text); } catch (error) { return null; }
}

const segment = (name) => encodeURIComponent(name);

// The value a JSON pointer names in a parsed document (undefined when there is none).
function valueAt(document, pointer) {
  let value = document;
  for (const key of pointerSegments(pointer)) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

const isColorObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && 'colorSpace' in v;

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
  // A color object stays one even while a hex is typed into it character by character (the
  // partial text is written as a string until it is a whole hex color again).
  const object = state.objects.has(pointer) || isColorObject(parseJSON(text.slice(start, end)));
  if (object) state.objects.add(pointer);
  return text.slice(0, start) + JSON.stringify(designTokenValue(object, value)) + text.slice(end);
}

function pointerOf(segments) {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

// Adds the value at `pointer`, creating the members on the way that do not exist yet: an
// override of an inherited token in the theme being fixed. The new member goes after the last
// one of its object, in that object's indentation; a DTCG-shaped path gets a color token.
function insertAt(text, pointer, value) {
  const segments = pointerSegments(pointer);
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    let range;
    try { range = locate(text, pointerOf(segments.slice(0, depth))); } catch (error) { continue; }
    const [start, end] = range;
    if (text[start] !== '{') throw new Error(`${pointerOf(segments.slice(0, depth))} is not an object`);
    const rest = segments.slice(depth);
    let inner = value;
    if (rest.length > 1 && rest[rest.length - 1] === '$value') { inner = { $type: 'color', $value: value }; rest.pop(); }
    for (let i = rest.length - 1; i >= 1; i--) inner = { [rest[i]]: inner };
    const inline = (v) => {
      if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
      if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')}}`;
      return JSON.stringify(v);
    };
    const member = `${JSON.stringify(rest[0])}: ${inline(inner)}`;
    const close = end - 1;
    let last = close - 1;
    while (last > start && ' \t\r\n'.includes(text[last])) last--;
    if (last === start) return text.slice(0, start + 1) + member + text.slice(close);
    const gap = /^\{([ \t\r\n]*)/.exec(text.slice(start))[1];
    const newline = gap.includes('\r\n') ? '\r\n' : '\n';
    const separator = gap.includes('\n') ? `${newline}${gap.split('\n').pop()}` : ' ';
    return `${text.slice(0, last + 1)},${separator}${member}${text.slice(last + 1)}`;
  }
  throw new Error(`${pointer} cannot be added to the document`);
}

// Sets one change of a fix: in place, or as a new override of an inherited token (written as
// a DTCG color object when the token it overrides is one).
function applyChange(text, change) {
  try {
    return replaceAt(text, change.pointer, change.value);
  } catch (error) {
    if (!change.override) throw error;
    const object = isColorObject(valueAt(parseJSON(text), inheritedPointer(change)));
    if (object) state.objects.add(change.pointer);
    return insertAt(text, change.pointer, designTokenValue(object, change.value));
  }
}

// Where the token an override replaces is written: in the theme it is inherited from.
function inheritedPointer(change) {
  const themes = state.listing ? state.listing.themes : [];
  const theme = themes.find((t) => change.pointer.startsWith(`${pointerOf(['themes', t.name])}/`));
  const inherited = theme && theme.inherited.find((t) => t.name === change.token);
  const base = inherited && themes.find((t) => t.name === inherited.from);
  const token = base && base.tokens.find((t) => t.name === change.token);
  return token ? token.pointer : '/nothing';
}

// A W3C Design Tokens color is an object ({colorSpace, components, alpha, hex}): a hex color
// written over one stays one, so the file remains a valid tokens file. Other CSS text is
// written as text, which contrast reads too.
function designTokenValue(object, value) {
  const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value);
  if (!object || !hex) return value;
  const channel = (i) => parseInt(hex[1].slice(i, i + 2), 16) / 255;
  const color = { colorSpace: 'srgb', components: [channel(0), channel(2), channel(4)] };
  if (hex[2]) color.alpha = Math.round(parseInt(hex[2], 16) / 255 * 1000) / 1000;
  color.hex = `#${hex[1].toLowerCase()}`;
  return color;
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

// Messages go to the workbench's status line, or to the page's when no palette is open.
function setStatus(message) {
  const target = byId('workbench').hidden ? byId('page-status') : byId('status');
  target.textContent = message;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function report(error) {
  setStatus(`Something went wrong: ${error.message}. Is the service still running?`);
}

// ---------------------------------------------------------------------------------------------
// Opening a palette

function servedNames() {
  return Array.from(document.querySelectorAll('.palette-list > li')).map((li) => li.dataset.palette);
}

async function openServed(name) {
  const opening = ++state.opening;
  if (!servedNames().includes(name)) {
    setStatus(`The service holds no palette named "${name}".`);
    return;
  }
  setStatus(`Opening ${name}…`);
  const answer = await api('GET', `/v1/palettes/${segment(name)}`);
  if (opening !== state.opening) return;
  if (!answer.ok) {
    const problem = parseJSON(answer.text);
    setStatus(problem && problem.detail ? problem.detail : `The service answered ${answer.status}.`);
    return;
  }
  history.replaceState(null, '', `#palette=${segment(name)}`);
  const draft = state.drafts.get(name);
  const item = document.querySelector(`.palette-list > li[data-palette="${CSS.escape(name)}"]`);
  await start(name, answer.text, { served: true, opening, draft: draft && draft.text, saved: draft && draft.saved ? draft.text : null,
    file: item && item.dataset.file });
  if (draft && draft.text !== answer.text && opening === state.opening) {
    setStatus(`Your earlier edits of ${name} are back ("Undo all edits" returns to the served palette): ${byId('status').textContent}`);
  }
}

// Opens a document in the workbench. `file` is the name a download gets (the served file's, or
// the brought one's); `draft` is earlier edits of a served palette, resumed.
async function start(name, text, { served, opening = ++state.opening, brought = false, draft, saved = null, file } = {}) {
  if (opening !== state.opening) return;
  clearTimeout(state.timer);
  Object.assign(state, { name, served, brought, css: isStylesheet(text, file), text: draft === undefined ? text : draft, original: text, saved,
    file: file || `${name}.json`, proposal: null, problems: 0, rows: new Map(), objects: new Set(), listing: null });
  if (brought) Object.assign(state, { broughtUnsaved: false, broughtText: text, broughtFile: file });
  state.generation++;
  byId('editor').replaceChildren();
  byId('changes').replaceChildren();
  byId('audit-view').replaceChildren();
  byId('page-status').textContent = '';
  byId('workbench').hidden = false;
  const title = byId('workbench-title');
  title.textContent = !brought ? `Workbench: ${name}`
    : served ? `Workbench: your copy of ${name}, compared with the served one` : `Workbench: ${name} (brought by you)`;
  document.title = `${name} · contrast`;
  title.setAttribute('tabindex', '-1');
  title.focus();
  await refresh();
}

// ---------------------------------------------------------------------------------------------
// Re-auditing after every change

function scheduleRefresh() {
  state.generation++;
  state.proposal = null;
  clearTimeout(state.timer);
  byId('audit-view').classList.add('stale');
  state.timer = setTimeout(() => { refresh().catch(report); }, 200);
}

// Waits until the audit matches the text being edited (for downloads): an edit still waiting
// for its pause is audited now, and an audit in flight is waited for.
async function settled() {
  for (;;) {
    if (state.pending) { await state.pending; continue; }
    if (state.timer !== null) {
      clearTimeout(state.timer);
      state.timer = null;
      await refresh();
      continue;
    }
    return;
  }
}

function refresh() {
  const run = refreshNow().finally(() => { if (state.pending === run) state.pending = null; });
  state.pending = run;
  return run;
}

// Where the current text is audited: as a proposal against the served palette of its name, or
// on its own.
function auditPath() {
  return state.served ? `/v1/palettes/${segment(state.name)}/proposals` : `/v1/audit?name=${segment(state.fallbackName || 'pasted')}`;
}

async function refreshNow() {
  state.timer = null;
  const generation = ++state.generation;
  const body = state.text;
  const opening = state.opening;
  // First resolve the tokens: the answer carries every problem (a bad color, an unknown alias)
  // with its JSON pointer, and the colors for the pickers. Only a palette without problems is
  // audited, so no request is made that must fail.
  const tokens = await api('POST', state.served ? '/v1/tokens' : `/v1/tokens?name=${segment(state.fallbackName || 'pasted')}`, { body, type: bodyType() });
  if (generation !== state.generation || opening !== state.opening) return;
  const listing = parseJSON(tokens.text);
  if (!tokens.ok || !listing) {
    setStatus(listing && listing.detail ? listing.detail : `The service answered ${tokens.status}.`);
    return;
  }
  state.listing = listing;
  const pointers = listing.themes.flatMap((theme) => theme.tokens.map((token) => token.pointer));
  if (state.rows.size !== pointers.length || !pointers.every((p) => state.rows.has(p))) buildEditor(listing);
  updateEditor(listing);
  state.problems = listing.problems.length;
  if (listing.problems.length > 0) {
    state.proposal = null;
    byId('audit-view').classList.add('stale');
    const fields = listing.problems.filter((p) => state.rows.has(p.pointer)).length;
    setStatus(`The palette has ${plural(listing.problems.length, 'problem')}${fields ? ' (marked at the fields)' : ''}; the audit resumes once ${listing.problems.length === 1 ? 'it is' : 'they are'} fixed.`);
    renderProblems(byId('changes'), listing.problems);
    return;
  }
  const path = auditPath();
  const [json, html] = await Promise.all([api('POST', path, { body, type: bodyType() }), api('POST', path, { body, accept: 'text/html', type: bodyType() })]);
  if (generation !== state.generation || opening !== state.opening) return;
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
  // A rebuild (a fix added an override) keeps the field being typed in focused, caret and all.
  const active = editor.contains(document.activeElement) ? document.activeElement : null;
  const keep = active && active.closest('.token')
    ? { pointer: active.closest('.token').dataset.pointer, picker: active.type === 'color',
      start: active.type === 'text' ? active.selectionStart : null, end: active.type === 'text' ? active.selectionEnd : null }
    : null;
  editor.replaceChildren();
  state.rows = new Map();
  const current = parseJSON(state.text);
  const original = parseJSON(state.original);
  let counter = 0;
  for (const theme of listing.themes) {
    const fieldset = el('fieldset', { 'data-theme': theme.name },
      el('legend', { text: theme.extends ? `${theme.name} (extends ${theme.extends})` : theme.name }));
    for (const token of theme.tokens) {
      const id = `token-${counter++}`;
      const hint = token.assumed ? el('span', { class: 'hint muted', id: `${id}-hint`, text: `Assumed: ${token.assumed}` }) : null;
      // A DTCG color object is shown as its hex, which is also how an edit writes it back.
      const written = valueAt(current, token.pointer);
      if (isColorObject(written) || isColorObject(valueAt(original, token.pointer))) state.objects.add(token.pointer);
      const shown = isColorObject(written) && token.hex ? token.hex : token.value;
      const text = el('input', { type: 'text', id, value: shown, spellcheck: 'false', autocomplete: 'off',
        'aria-describedby': hint ? `${id}-message ${id}-hint` : `${id}-message`, 'data-pointer': token.pointer });
      const picker = el('input', { type: 'color', id: `${id}-picker`, 'aria-label': `${token.name} in ${theme.name}: pick a color` });
      if (state.css) {
        text.readOnly = true;
        picker.disabled = true;
      }
      const row = el('div', { class: 'token', 'data-token': token.name, 'data-theme': theme.name, 'data-pointer': token.pointer },
        el('label', { for: id, text: token.name }), picker, text,
        el('span', { class: 'message', id: `${id}-message`, role: 'status' }), hint);
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
      const from = new Map();
      for (const t of theme.inherited) from.set(t.from, [...(from.get(t.from) || []), t.name]);
      const parts = Array.from(from, ([base, names]) => `${names.join(', ')} from ${base || 'another theme'}`);
      fieldset.append(el('p', { class: 'inherited muted', text: `Inherited: ${parts.join('; ')}. Edit them in the theme that defines them, or apply a fix swatch to override one in this theme only.` }));
    }
    editor.append(fieldset);
  }
  if (state.css) {
    editor.prepend(el('p', { class: 'muted', id: 'css-note', text: 'A stylesheet is audited as it is: change its values in the stylesheet and bring it again.' }));
  }
  const again = keep && state.rows.get(keep.pointer);
  if (again) {
    const field = again.querySelector(keep.picker ? 'input[type=color]' : 'input[type=text]');
    field.focus();
    if (keep.start !== null) field.setSelectionRange(keep.start, keep.end);
  }
}

function updateEditor(listing) {
  // "Edited" compares with the palette as opened (served, or as brought), so a reopened draft
  // marks exactly the tokens it changed; an override added by a fix is new, so it is edited.
  const current = parseJSON(state.text);
  const original = parseJSON(state.original);
  for (const theme of listing.themes) {
    for (const token of theme.tokens) {
      const row = state.rows.get(token.pointer);
      if (!row) continue;
      const picker = row.querySelector('input[type=color]');
      const text = row.querySelector('input[type=text]');
      if (token.hex) {
        row.dataset.hex = token.hex;
        picker.value = token.hex.slice(0, 7);
      }
      row.querySelector('.message').textContent = token.problem || '';
      if (token.problem) text.setAttribute('aria-invalid', 'true'); else text.removeAttribute('aria-invalid');
      const before = valueAt(original, token.pointer);
      row.classList.toggle('changed', before === undefined || JSON.stringify(before) !== JSON.stringify(valueAt(current, token.pointer)));
    }
  }
}

function edit(row, value) {
  state.text = replaceAt(state.text, row.dataset.pointer, value);
  keepDraft();
  mirrorBrought();
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
    // A distinct pair is judged by whether it is told apart, not by its contrast.
    const told = (verdict) => (verdict === 'pass' ? 'told apart' : 'confusable');
    const change = (c) => (c.after.kind === 'distinct'
      ? `${c.after.check}: ${told(c.before.verdict)} → ${told(c.after.verdict)}`
      : `${c.after.check}: ${c.before.ratio.toFixed(2)}:1 → ${c.after.ratio.toFixed(2)}:1 (${c.before.achieved} → ${c.after.achieved}${c.before.verdict !== c.after.verdict ? `, ${c.before.verdict} → ${c.after.verdict}` : ''})`);
    const failure = (r) => {
      const d = r.distinction;
      if (!d) return `${r.id}: ${r.display}${r.required ? `, needs ${r.required}:1` : ''}`;
      const seen = d.deficiency ? `; ${d.simulatedDifference.toFixed(1)} as ${d.deficiency} sees them` : '';
      return `${r.id}: ${d.metric} ${d.difference.toFixed(1)}${seen}, needs ${d.threshold} apart`;
    };
    const section = el('section', { 'data-theme': theme.name, 'aria-label': `Theme ${theme.name}` }, el('h3', { text: `Theme ${theme.name}` }));
    const list = (title, cls, items) => {
      section.append(el('p', { text: `${title}: ${items.length}` }));
      if (items.length > 0) section.append(el('ul', { class: cls }, ...items.map((text) => el('li', { text }))));
    };
    if (comparison) {
      list('Regressed', 'regressed', regressed.map(change));
      list('Improved', 'improved', improved.map(change));
    }
    list(comparison ? 'Still failing' : 'Failing', 'failing', still.map(failure));
    sections.push(section);
  }
  changes.replaceChildren(...sections);
  let summary = comparison
    ? `${plural(regressions, 'regression')}, ${plural(improvements, 'improvement')}, ${failing} still failing, against the served palette ${palette.name}.`
    : `${palette.name}: ${audit.summary.fail} of ${audit.summary.checks} checks fail.`;
  if (audit.summary.checks === 0) summary += ' The document has no checks: add "checks" naming pairs of tokens (see docs/palette-format.md) to audit them.';
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

// The report's headings start at h2; under this page's "Audit" (h3) they move down two levels.
function demoteHeadings(root) {
  for (const heading of root.querySelectorAll('h2, h3, h4')) {
    const lower = el(`h${Math.min(Number(heading.tagName[1]) + 2, 6)}`);
    for (const attribute of heading.attributes) lower.setAttribute(attribute.name, attribute.value);
    lower.append(...heading.childNodes);
    heading.replaceWith(lower);
  }
}

// The changes a fix swatch makes, from the audit JSON (each failing result lists its `fixes`:
// where each suggested color goes in the document); the HTML only names the fix.
function fixChanges(fix) {
  const row = fix.closest('tr');
  const report = state.proposal && (state.proposal.audit || state.proposal);
  if (!row || !report || !report.palettes || !report.palettes[0]) return [];
  const theme = report.palettes[0].themes.find((t) => t.name === row.dataset.theme);
  const result = theme && theme.results.find((r) => r.id === row.dataset.check);
  const found = result && (result.fixes || []).find((f) => f.kind === fix.dataset.fix);
  return found ? found.changes : [];
}

function renderAudit(html) {
  // The report's own style sheet is already part of /app.css; parsing its inline copy would
  // break this page's Content-Security-Policy (style-src 'self'), so it is left out.
  const page = new DOMParser().parseFromString(html.replace(/<style>[\s\S]*?<\/style>/, ''), 'text/html');
  const main = page.querySelector('main');
  const view = byId('audit-view');
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(main ? main.childNodes : []).map((node) => document.importNode(node, true)));
  demoteHeadings(fragment);
  view.replaceChildren(fragment);
  view.classList.remove('stale');
  applyVision().catch(report);
  for (const fix of view.querySelectorAll('.fix[data-fix]')) {
    const changes = fixChanges(fix);
    if (changes.length === 0) continue;
    const row = fix.closest('tr');
    const theme = row ? row.dataset.theme : '';
    const check = row ? row.dataset.check : '';
    try {
      changes.reduce(applyChange, state.text);
    } catch (error) {
      // Written outside this document (a checks file beside a tokens file), or in a stylesheet:
      // not applicable here.
      fix.title = state.css ? 'Change this value in the stylesheet.' : 'This color is written in another file; change it there.';
      fix.setAttribute('aria-label', `${fix.textContent.trim()}: ${fix.title}`);
      fix.setAttribute('aria-disabled', 'true');
      continue;
    }
    const targets = changes.map((c) => {
      const where = pointerSegments(c.pointer);
      const name = c.token ? `token ${c.token}` : `${check}'s ${where[where.length - 1]} color`;
      if (c.override) return `${name} in theme ${theme} only (an override there; the theme it inherits from keeps its value)`;
      const definedIn = where[0] === 'themes' ? where[1] : null;
      return definedIn && definedIn !== theme ? `${name} (written in theme ${definedIn}, which changes too)` : name;
    });
    const label = `Apply ${changes.map((c) => c.value).join(' and ')} to ${targets.join(' and ')}`;
    fix.setAttribute('role', 'button');
    fix.setAttribute('tabindex', '0');
    fix.setAttribute('aria-label', label);
    fix.title = label;
  }
}

// "View as": every color of the workbench as the chosen color-vision deficiency sees it. The
// service simulates them (POST /v1/simulate); the page keeps each element's own style in
// data-normal-style and swaps it back for normal vision.
const hexColor = /#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?\b/g;
let visionRound = 0;
async function applyVision() {
  const select = byId('vision');
  const vision = select ? select.value : '';
  const round = ++visionRound;
  const root = byId('workbench');
  const styled = Array.from(root.querySelectorAll('[style]'));
  for (const node of styled) {
    if (node.dataset.normalStyle === undefined) node.dataset.normalStyle = node.getAttribute('style');
  }
  if (!vision) {
    for (const node of styled) node.setAttribute('style', node.dataset.normalStyle);
    root.removeAttribute('data-vision');
    return;
  }
  const colors = new Set();
  for (const node of styled) for (const match of node.dataset.normalStyle.match(hexColor) || []) colors.add(match.toLowerCase());
  if (colors.size === 0) return;
  const list = Array.from(colors);
  const answer = await api('POST', '/v1/simulate', { body: JSON.stringify({ colors: list, deficiencies: [vision] }) });
  if (round !== visionRound) return;
  const result = parseJSON(answer.text);
  if (!answer.ok || !result || !result.visions || !result.visions[0]) {
    setStatus(`The service could not simulate ${vision}: ${(result && result.detail) || answer.status}`);
    return;
  }
  const seen = new Map(list.map((color, index) => [color, result.visions[0].colors[index]]));
  for (const node of styled) {
    node.setAttribute('style', node.dataset.normalStyle.replace(hexColor, (color) => seen.get(color.toLowerCase()) || color));
  }
  root.dataset.vision = vision;
  setStatus(`Showing the workbench as ${select.options[select.selectedIndex].text} sees it (simulated by the service).`);
}

async function applyFix(fix) {
  const changes = fixChanges(fix);
  const row = fix.closest('tr');
  const where = row ? { theme: row.dataset.theme, check: row.dataset.check } : null;
  state.text = changes.reduce(applyChange, state.text);
  keepDraft();
  mirrorBrought();
  for (const change of changes) {
    const editorRow = state.rows.get(change.pointer);
    if (editorRow) {
      editorRow.querySelector('input[type=text]').value = change.value;
      editorRow.classList.add('changed');
    }
  }
  setStatus(`Applied ${changes.map((c) => `${c.value} to ${c.token || c.pointer}`).join(' and ')}; auditing…`);
  clearTimeout(state.timer);
  state.proposal = null;
  const run = refresh();
  const generation = state.generation;
  await run;
  // Back to the same check, so the designer sees its new verdict and can go on from there:
  // unless they went on already (typed or clicked elsewhere while the audit ran).
  if (!where || state.generation !== generation || state.proposal === null) return;
  const focus = document.activeElement;
  if (focus && focus !== document.body && !byId('audit-view').contains(focus)) return;
  const again = Array.from(byId('audit-view').querySelectorAll('tr[data-check]'))
    .find((tr) => tr.dataset.theme === where.theme && tr.dataset.check === where.check && !tr.closest('.side-by-side'));
  if (again) {
    again.setAttribute('tabindex', '-1');
    again.focus();
  }
}

// ---------------------------------------------------------------------------------------------
// Bring your own

function selectLine(area, line) {
  const lines = area.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[line - 1] || '').length);
}

async function auditBrought(text, filename) {
  const result = byId('byo-result');
  const area = byId('byo-text');
  if (!text.trim()) {
    result.replaceChildren(el('p', { text: 'Paste a palette or a tokens file first.' }));
    return;
  }
  // A tokens file has no name of its own: it is called after its file, as the CLI does.
  const fallback = filename ? baseName(filename) : 'pasted';
  const css = isStylesheet(text, filename);
  let answer;
  try {
    answer = await api('POST', `/v1/tokens?name=${segment(fallback)}`, { body: text, type: css ? 'text/css' : 'application/json' });
  } catch (error) {
    result.replaceChildren(el('p', { text: `The service did not answer (${error.message}). Is it still running?` }));
    return;
  }
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
    // Each located problem can select its line in the text, to fix it there.
    listing.problems.forEach((problem, index) => {
      if (!problem.location) return;
      const show = el('button', { type: 'button', class: 'secondary', text: `Show line ${problem.location.line}` });
      show.addEventListener('click', () => selectLine(area, problem.location.line));
      list.querySelectorAll('li')[index].append(' ', show);
    });
    result.append(list);
    return;
  }
  area.removeAttribute('aria-invalid');
  result.replaceChildren();
  history.replaceState(null, '', location.pathname);
  const name = listing.palette;
  state.fallbackName = fallback;
  // A palette named like a served one is compared with it, as a proposal.
  if (hasUnsavedEdits()) keepDraft();
  // A stylesheet is audited on its own (a served palette's proposals are JSON documents).
  await start(name, text, { served: !css && servedNames().includes(name), brought: true, file: filename });
}

// ---------------------------------------------------------------------------------------------
// Wiring

function openFromHash() {
  const match = /^#palette=(.+)$/.exec(location.hash);
  if (!match) return;
  let name;
  try { name = decodeURIComponent(match[1]); } catch (error) { setStatus('The address names no palette this page can open.'); return; }
  if (name !== state.name || !state.served) openServed(name).catch(report);
}

async function wire() {
  const answer = await api('GET', '/v1/formats');
  formats = (parseJSON(answer.text) || {}).formats || [];
  for (const link of document.querySelectorAll('a.open-palette')) {
    link.addEventListener('click', (event) => {
      // A modified click opens the report in a new tab or window, as links do.
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      openServed(link.dataset.palette).catch(report);
    });
  }
  byId('vision').addEventListener('change', () => { applyVision().catch(report); });
  const view = byId('audit-view');
  view.addEventListener('click', (event) => {
    const fix = event.target.closest('.fix[role=button]');
    if (fix) applyFix(fix).catch(report);
  });
  view.addEventListener('keydown', (event) => {
    const fix = event.target.closest('.fix[role=button]');
    if (fix && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      applyFix(fix).catch(report);
    }
  });

  const unavailable = () => setStatus(state.problems > 0
    ? `There is no audit to download while the palette has ${plural(state.problems, 'problem')}.`
    : 'There is no audit to download: the service did not audit the palette (see the message above). Edit a value to try again.');
  byId('download-palette').addEventListener('click', () => {
    const filename = state.file || `${state.name}.json`;
    download(filename, state.text, 'application/json');
    state.saved = state.text;
    keepDraft();
    mirrorBrought();
    if (state.problems > 0) setStatus(`Downloaded ${filename}; it still has ${plural(state.problems, 'problem')}.`);
  });
  byId('download-audit-json').addEventListener('click', async () => {
    try {
      await settled();
      if (!state.proposal) { unavailable(); return; }
      const audit = state.served ? state.proposal.audit : state.proposal;
      download(`${state.name}-audit.json`, `${JSON.stringify(audit, null, 2)}\n`, 'application/json');
    } catch (error) {
      report(error);
    }
  });
  byId('download-audit-md').addEventListener('click', async () => {
    try {
      await settled();
      if (!state.proposal) { unavailable(); return; }
      const answer = await api('POST', auditPath(), { body: state.text, accept: 'text/markdown', type: bodyType() });
      if (!answer.ok) { unavailable(); return; }
      download(`${state.name}-audit.md`, answer.text, 'text/markdown');
    } catch (error) {
      report(error);
    }
  });
  byId('revert').addEventListener('click', () => {
    if (state.text === state.original) { setStatus('There are no edits to undo.'); return; }
    if (hasUnsavedEdits() && !window.confirm(`Undo every edit of ${state.name}? They were not downloaded.`)) return;
    state.text = state.original;
    keepDraft();
    mirrorBrought();
    state.rows = new Map();
    state.proposal = null;
    clearTimeout(state.timer);
    setStatus('All edits undone.');
    refresh().catch(report);
  });

  const area = byId('byo-text');
  // The text box audited again is the document it holds (line ends and all), named after the
  // file it came from.
  byId('byo-audit').addEventListener('click', () => {
    (boxHoldsBrought() ? auditBrought(state.broughtText, state.broughtFile) : auditBrought(area.value)).catch(report);
  });
  area.addEventListener('paste', () => { setTimeout(() => { auditBrought(area.value).catch(report); }, 0); });
  const readFile = async (file) => {
    if (!file) return;
    // The text box holds the edits of the palette brought before; replacing it asks first.
    if (broughtEditsAtRisk()
      && !window.confirm(`Your edits of ${state.name} were not downloaded. Replace them with ${file.name}?`)) return;
    const text = await file.text();
    area.value = text;
    await auditBrought(text, file.name);
  };
  byId('byo-file').addEventListener('change', (event) => { readFile(event.target.files[0]).catch(report); });
  const zone = byId('drop-zone');
  zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    readFile(event.dataTransfer.files[0]).catch(report);
  });

  window.addEventListener('hashchange', openFromHash);
  // Leaving the page loses edits that were not downloaded: the browser asks first.
  window.addEventListener('beforeunload', (event) => {
    const others = Array.from(state.drafts).some(([name, draft]) => name !== state.name && !draft.saved);
    if (hasUnsavedEdits() || others || broughtEditsAtRisk()) event.preventDefault();
  });
  openFromHash();
}

document.addEventListener('DOMContentLoaded', () => { wire().catch(report); });
