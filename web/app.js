// contrast: the designers' page. Native ES modules with no framework and no build step; this
// one opens palettes, keeps the edits and wires the page, and imports the rest:
//   api.js       the service's API (every request goes to this origin; see /openapi.yaml)
//   document.js  editing a document in place, at the spans the service reports
//   editor.js    the token editor
//   audit.js     the audit view, what the edits changed, fixes and "View as"
//   dom.js       small DOM helpers

import { api, baseName, isStylesheet, loadFormats, parseJSON, segment } from './api.js';
import { applyVision, fixChanges, renderAudit, renderChanges, renderProblems } from './audit.js';
import { EditableDocument, pointerOf } from './document.js';
import { byId, download, el, plural, report, setStatus } from './dom.js';
import { buildEditor, editedPointers, updateEditor, writtenValues } from './editor.js';

// Everything the page remembers, each field declared here.
const state = {
  name: null,          // the palette's name
  served: false,       // the service holds a palette of that name: edits are proposals against it
  brought: false,      // the text was pasted or dropped rather than opened from the list
  css: false,          // the document is a stylesheet (sent as text/css)
  file: null,          // the name a download gets (the served file's, or the brought one's)
  fallbackName: null,  // the name a document without one is audited under (its file's)
  doc: null,           // the document being edited (an EditableDocument: its text and spans)
  original: null,      // the text as opened, for "Undo all edits"
  saved: null,         // the text last downloaded
  before: null,        // pointer -> value as written in the original, to mark edited tokens
  listing: null,       // the last token listing (POST /v1/tokens) of the current text
  rows: new Map(),     // JSON pointer of a token's value -> its editor row
  problems: 0,         // problems of the current text, from the last token listing
  proposal: null,      // the audit answer (JSON) for the current text; null while one is pending
  pending: null,       // the refresh in flight, if any
  generation: 0,       // bumped by every edit; answers to older generations are dropped
  opening: 0,          // bumped by every palette opened; older openings are dropped
  timer: null,         // the refresh waiting for a pause in typing
  drafts: new Map(),   // served palette name -> {text, saved}: its edits, kept while others are open
  broughtText: null,   // the brought document's text with its edits, as the text box holds it
  broughtFile: null,   // the brought file's name
  broughtUnsaved: false, // the brought document has edits not downloaded
  theme: '',           // the theme the workbench shows ('' for every theme); in the address
};

const currentText = () => (state.doc ? state.doc.text : null);

// Remembers the current edits, so reopening a palette resumes them instead of losing them.
function keepDraft() {
  if (!state.served || state.brought) return;
  const text = currentText();
  if (text === state.original) state.drafts.delete(state.name);
  else state.drafts.set(state.name, { text, saved: text === state.saved });
}

function hasUnsavedEdits() {
  const text = currentText();
  return text !== null && text !== state.original && text !== state.saved;
}

// A brought document's edits are mirrored into the "Bring your own" text box, so opening a
// served palette does not lose them (auditing the box again resumes them).
function mirrorBrought() {
  if (!state.brought) return;
  byId('byo-text').value = currentText();
  state.broughtText = currentText();
  state.broughtUnsaved = hasUnsavedEdits();
}

// A text box reads CRLF line ends as LF; the document itself keeps them.
const normalized = (text) => text.replace(/\r\n?/g, '\n');
const boxHoldsBrought = () => typeof state.broughtText === 'string' && byId('byo-text').value === normalized(state.broughtText);

// Edits of a brought document not downloaded, still only in the text box.
const broughtEditsAtRisk = () => state.broughtUnsaved && boxHoldsBrought();

const bodyType = () => (state.css ? 'text/css' : 'application/json');

// ---------------------------------------------------------------------------------------------
// The state in the address: the palette and its edits, so a proposal can be sent as a link.
// The edits are the one changed stretch of the served text (from the first changed character to
// the last), with the served text's length and hash, deflated and base64url-encoded in the
// fragment (never sent to any server): #palette=NAME&edits=…

function hashOf(text) {
  let h = 0x811c9dc5;  // FNV-1a, 32 bits: tells the served text a link was made on from another
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
}

async function deflated(bytes, mode) {
  const stream = new Blob([bytes]).stream().pipeThrough(mode === 'in' ? new DecompressionStream('deflate-raw') : new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function encodeEdits(original, text) {
  let start = 0;
  while (start < original.length && start < text.length && original[start] === text[start]) start++;
  let end = 0;
  while (end < original.length - start && end < text.length - start && original[original.length - 1 - end] === text[text.length - 1 - end]) end++;
  const edit = { v: 1, n: original.length, h: hashOf(original), s: start, e: original.length - end, t: text.slice(start, text.length - end) };
  const packed = await deflated(new TextEncoder().encode(JSON.stringify(edit)), 'out');
  let binary = '';
  for (const b of packed) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The edits of a link, applied to the served text, or an Error saying why they cannot be.
async function decodeEdits(code, original, name) {
  let edit;
  try {
    const binary = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    edit = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await deflated(bytes, 'in')));
  } catch (error) {
    return new Error(`the link's edits do not decode (${error.message}); it was cut short or changed on the way`);
  }
  if (!edit || edit.v !== 1 || typeof edit.t !== 'string' || !Number.isInteger(edit.s) || !Number.isInteger(edit.e) || edit.s > edit.e) {
    return new Error('the link\'s edits decode to something this page did not write');
  }
  if (edit.n !== original.length || edit.h !== hashOf(original) || edit.e > original.length) {
    return new Error(`the link's edits were made on another version of ${name} than the service holds now`);
  }
  return original.slice(0, edit.s) + edit.t + original.slice(edit.e);
}

// The address of a served palette without edits: its name and the theme shown.
const addressOf = (name) => `#palette=${segment(name)}${state.theme ? `&theme=${segment(state.theme)}` : ''}`;

let addressRound = 0;
async function rememberInAddress() {
  if (!state.served || state.brought || !state.doc) return;
  const round = ++addressRound;
  const text = currentText();
  const base = addressOf(state.name);
  const address = text === state.original ? base : `${base}&edits=${await encodeEdits(state.original, text)}`;
  if (round === addressRound && location.hash !== address) history.replaceState(null, '', address);
}

// ---------------------------------------------------------------------------------------------
// Opening a palette

function servedNames() {
  return Array.from(document.querySelectorAll('.palette-list > li')).map((li) => li.dataset.palette);
}

async function openServed(name, { edits = null } = {}) {
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
  let draft = state.drafts.get(name);
  if (edits !== null) {
    const linked = await decodeEdits(edits, answer.text, name);
    if (opening !== state.opening) return;
    if (linked instanceof Error) {
      history.replaceState(null, '', addressOf(name));
      setStatus(`This link is refused: ${linked.message}. Nothing was opened; open ${name} from the list to start from the served palette.`);
      return;
    }
    draft = { text: linked, saved: false };
  } else {
    history.replaceState(null, '', addressOf(name));
  }
  const item = document.querySelector(`.palette-list > li[data-palette="${CSS.escape(name)}"]`);
  await start(name, answer.text, { served: true, opening, draft: draft && draft.text, saved: draft && draft.saved ? draft.text : null,
    file: item && item.dataset.file });
  if (draft && draft.text !== answer.text && opening === state.opening) {
    const whose = edits !== null ? `The link's edits of ${name} are applied` : `Your earlier edits of ${name} are back`;
    setStatus(`${whose} ("Undo all edits" returns to the served palette): ${byId('status').textContent}`);
  }
}

// The values of `text` as written, by pointer (for a draft, whose first listing is not of the
// original).
async function valuesOf(text, css) {
  const answer = await api('POST', `/v1/tokens?name=${segment(state.fallbackName || state.name || 'pasted')}`, { body: text, type: css ? 'text/css' : 'application/json' });
  const listing = parseJSON(answer.text);
  if (!answer.ok || !listing) return null;
  const doc = new EditableDocument(text, css);
  doc.useSpans(listing);
  return writtenValues(doc);
}

// Opens a document in the workbench; `draft` is earlier edits of a served palette, resumed.
async function start(name, text, { served, opening = ++state.opening, brought = false, draft, saved = null, file } = {}) {
  if (opening !== state.opening) return;
  clearTimeout(state.timer);
  const css = isStylesheet(text, file);
  Object.assign(state, { name, served, brought, css, doc: new EditableDocument(draft === undefined ? text : draft, css), original: text, saved,
    file: file || `${name}${css ? '.css' : '.json'}`, proposal: null, problems: 0, rows: new Map(), listing: null, before: null, timer: null });
  if (brought) Object.assign(state, { broughtUnsaved: false, broughtText: text, broughtFile: file || null });
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
  if (state.doc.text !== text) {
    const before = await valuesOf(text, css);
    if (opening !== state.opening) return;
    state.before = before;
  }
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
// on its own. `include=html` asks for the rendered report in the same answer as its data.
function auditPath({ html = false } = {}) {
  const path = state.served ? `/v1/palettes/${segment(state.name)}/proposals` : `/v1/audit?name=${segment(state.fallbackName || 'pasted')}`;
  if (!html) return path;
  // Every fix comes with what else it changes (`effects`: the palette audited with it applied).
  return `${path}${path.includes('?') ? '&' : '?'}include=html,effects`;
}

// One edit costs two requests: the token listing (every problem with its pointer, the colors
// for the pickers, and where each value is written) and, when it has no problems, one audit
// whose answer carries both the data and the rendered report.
async function refreshNow() {
  state.timer = null;
  const generation = ++state.generation;
  const doc = state.doc;
  const body = doc.text;
  const opening = state.opening;
  const tokens = await api('POST', state.served ? '/v1/tokens' : `/v1/tokens?name=${segment(state.fallbackName || 'pasted')}`, { body, type: bodyType() });
  if (generation !== state.generation || opening !== state.opening) return;
  const listing = parseJSON(tokens.text);
  if (!tokens.ok || !listing) {
    setStatus(listing && listing.detail ? listing.detail : `The service answered ${tokens.status}.`);
    return;
  }
  state.listing = listing;
  doc.useSpans(listing);
  if (state.before === null && body === state.original) state.before = writtenValues(doc);
  const pointers = editedPointers(listing, doc);
  if (state.rows.size !== pointers.length || !pointers.every((p) => state.rows.has(p))) buildEditor(state, listing, edit);
  updateEditor(state, listing);
  showTheme();
  state.problems = listing.problems.length;
  if (listing.problems.length > 0) {
    state.proposal = null;
    byId('audit-view').classList.add('stale');
    const fields = listing.problems.filter((p) => state.rows.has(p.pointer)).length;
    setStatus(`The palette has ${plural(listing.problems.length, 'problem')}${fields ? ' (marked at the fields)' : ''}; the audit resumes once ${listing.problems.length === 1 ? 'it is' : 'they are'} fixed.`);
    renderProblems(byId('changes'), listing.problems);
    return;
  }
  const audited = await api('POST', auditPath({ html: true }), { body, type: bodyType() });
  if (generation !== state.generation || opening !== state.opening) return;
  const answer = parseJSON(audited.text);
  if (!audited.ok || !answer || typeof answer.html !== 'string') {
    setStatus(answer && answer.detail ? answer.detail : `The service answered ${audited.status}.`);
    return;
  }
  const { html } = answer;
  delete answer.html;
  state.proposal = answer;
  renderChanges(state, answer);
  renderAudit(state, html);
  showTheme();
  await rememberInAddress();
}

function edit(row, value) {
  try {
    state.doc.set(row.dataset.pointer, value);
  } catch (error) {
    setStatus(`${row.dataset.token} cannot be changed here: ${error.message}.`);
    return;
  }
  keepDraft();
  mirrorBrought();
  row.classList.add('changed');
  scheduleRefresh();
}

// Whether the token an override replaces is written as a DTCG color object (in the theme it
// is inherited from): the override is written as one too.
function overridesAnObject(change) {
  const themes = state.listing ? state.listing.themes : [];
  const theme = themes.find((t) => change.pointer.startsWith(`${pointerOf(['themes', t.name])}/`));
  const inherited = theme && theme.inherited.find((t) => t.name === change.token);
  const base = inherited && themes.find((t) => t.name === inherited.from);
  const token = base && base.tokens.find((t) => t.name === change.token);
  return Boolean(token && state.doc.objects.has(token.pointer));
}

async function applyFix(fix) {
  const changes = fixChanges(state, fix);
  const row = fix.closest('tr');
  const where = row ? { theme: row.dataset.theme, check: row.dataset.check } : null;
  state.doc.applyAll(changes, (change) => Boolean(change.override) && overridesAnObject(change));
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
  state.timer = null;
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
  state.theme = '';
  const name = listing.palette;
  state.fallbackName = fallback;
  // A palette named like a served one is compared with it, as a proposal.
  if (hasUnsavedEdits()) keepDraft();
  // A stylesheet is audited on its own (a served palette's proposals are JSON documents).
  await start(name, text, { served: !css && servedNames().includes(name), brought: true, file: filename });
}

// ---------------------------------------------------------------------------------------------
// Any two colors: measured by the service (GET /v1/contrast, POST /v1/suggest), no palette needed

// The OKLCH sliders: the foreground's lightness (0 to 100 %) at its own chroma and hue, and its
// chroma (0 to 0.4, CSS's 100 %) at its own lightness and hue. Every ratio they show is the
// service's: the marks (where the pair reaches WCAG 3:1, 4.5:1 and 7:1, and APCA Lc 45, 60, 75
// and 90, on each track; where the foreground leaves sRGB on the chroma track) come from one
// batch (POST /v1/contrast, one pair per step of each track), and the ratio as a slider moves
// from measuring the pair again. Only the foreground's own lightness, chroma and hue are found
// here (from its hex, with OKLab's published matrices), to name the colors asked about.
function oklchOf(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [channel(1), channel(3), channel(5)];
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
  const C = Math.hypot(A, B);
  const H = C < 1e-4 ? 0 : ((Math.atan2(B, A) * 180 / Math.PI) + 360) % 360;
  const alpha = hex.length === 9 ? Math.round(parseInt(hex.slice(7), 16) / 255 * 1000) / 1000 : 1;
  return { L: Math.round(L * 100), C: Math.round(C * 10000) / 10000, H: Math.round(H * 100) / 100, alpha };
}

const oklchText = (c) => `oklch(${c.L}% ${c.C} ${c.H}${c.alpha < 1 ? ` / ${c.alpha}` : ''})`;

const thresholds = [3, 4.5, 7];
// APCA's levels for text: Lc 45 (large text), 60 (body text), 75 (preferred body text) and
// 90 (fluent reading); a pair reaches one when its Lc, of either polarity, is at least that.
const apcaLevels = [45, 60, 75, 90];
const chromaStep = 0.004;
// Each track has 101 steps; `at` is the color at step i, `step` the step of a color.
const tuneAxes = [
  { key: 'lightness', box: 'pair-tune', id: 'pair-lightness', list: 'pair-marks', text: 'pair-marks-text', ratio: 'pair-tune-ratio',
    label: 'Foreground lightness (OKLCH L, its chroma and hue kept)', name: 'lightness',
    step: (c) => c.L, at: (c, i) => ({ ...c, L: i }), word: (i) => `${i}`, span: (a, b) => `L ${a === b ? a : `${a}\u2013${b}`} %` },
  { key: 'chroma', box: 'pair-tune-chroma', id: 'pair-chroma', list: 'pair-chroma-marks', text: 'pair-chroma-marks-text', ratio: 'pair-chroma-ratio',
    label: 'Foreground chroma (OKLCH C from 0 to 0.4, its lightness and hue kept)', name: 'chroma',
    step: (c) => Math.min(100, Math.round(c.C / chromaStep)), at: (c, i) => ({ ...c, C: Number((i * chromaStep).toFixed(3)) }),
    word: (i) => (i * chromaStep).toFixed(3), span: (a, b) => `C ${a === b ? (a * chromaStep).toFixed(3) : `${(a * chromaStep).toFixed(3)}\u2013${(b * chromaStep).toFixed(3)}`}` },
];
const tuneSteps = Array.from({ length: 101 }, (_, i) => i);

// The stretches of steps where `reaches(i)` holds, as [first, last] pairs.
function stretchesWhere(reaches) {
  const stretches = [];
  let from = null;
  for (const i of tuneSteps) {
    if (reaches(i) && from === null) from = i;
    if ((!reaches(i) || i === 100) && from !== null) { stretches.push([from, reaches(i) ? i : i - 1]); from = null; }
  }
  return stretches;
}

// One track's marks and its sentence, from the service's results for its 101 steps.
function axisMarks(axis, results) {
  const marks = [];
  const words = [];
  const levels = [];
  const edges = (stretches, add) => { for (const [a, b] of stretches) { if (a > 0) add(a); if (b < 100) add(b); } };
  for (const t of thresholds) {
    const stretches = stretchesWhere((i) => results[i].ratio >= t);
    edges(stretches, (i) => marks.push({ i, t }));
    words.push(stretches.length ? `${t}:1 at ${stretches.map(([a, b]) => axis.span(a, b)).join(' and ')}` : `${t}:1 nowhere`);
  }
  for (const lc of apcaLevels) {
    const stretches = stretchesWhere((i) => Math.abs(results[i].apca) >= lc);
    edges(stretches, (i) => levels.push({ i, lc }));
    words.push(stretches.length ? `APCA Lc ${lc} at ${stretches.map(([a, b]) => axis.span(a, b)).join(' and ')}` : `APCA Lc ${lc} nowhere`);
  }
  const outside = tuneSteps.find((i) => (results[i].outOfGamut || []).includes('foreground'));
  return { marks, levels, words, gamut: axis.key === 'chroma' && outside !== undefined && outside > 0 ? outside : null };
}

function drawAxisMarks(axis, found) {
  const place = (tick, i) => { tick.style.left = `${i}%`; return tick; };
  const wcag = el('div', { class: 'tune-marks', 'aria-hidden': 'true' },
    ...found.marks.map((m) => place(el('span', { class: 'tune-mark', 'data-step': String(m.i), [`data-${axis.name}`]: axis.word(m.i), 'data-threshold': String(m.t), text: `${m.t}` }), m.i)));
  const apca = el('div', { class: 'tune-marks tune-marks-apca', 'aria-hidden': 'true' },
    ...found.levels.map((m) => place(el('span', { class: 'tune-apca', 'data-step': String(m.i), [`data-${axis.name}`]: axis.word(m.i), 'data-lc': String(m.lc), text: `Lc ${m.lc}` }), m.i)));
  if (found.gamut !== null) apca.append(place(el('span', { class: 'tune-gamut', 'data-step': String(found.gamut), text: 'sRGB ends' }), found.gamut));
  const track = byId(axis.id).parentElement;
  track.querySelectorAll('.tune-marks').forEach((old) => old.remove());
  track.append(wcag, apca);
  byId(axis.list).replaceChildren(...found.marks.map((m) => el('option', { value: String(m.i), label: `${m.t}:1` })));
  const gamut = found.gamut === null ? '' : ` Past C ${(found.gamut * chromaStep).toFixed(3)} the color is outside sRGB and is measured gamut-mapped, as the service draws it.`;
  byId(axis.text).textContent = `On this background (measured by the service, per step of ${axis.name}): ${found.words.join('; ')}.${gamut}`;
}

let tuneRound = 0;
// The marks of both tracks for the foreground `base` on `bg`, measured in one batch.
async function measureTracks(base, bg, round) {
  const colors = tuneAxes.flatMap((axis) => tuneSteps.map((i) => oklchText(axis.at(base, i))));
  const answer = await api('POST', '/v1/contrast', { body: JSON.stringify({ pairs: colors.map((fg) => ({ fg, bg })) }) });
  if (round !== tuneRound) return null;
  const batch = parseJSON(answer.text);
  if (!answer.ok || !batch || !Array.isArray(batch.results) || batch.results.length !== colors.length
      || batch.results.some((r) => typeof r.ratio !== 'number' || typeof r.apca !== 'number')) return null;
  return tuneAxes.map((axis, k) => axisMarks(axis, batch.results.slice(k * 101, k * 101 + 101)));
}

async function buildTune(foreground, bg, display) {
  const round = ++tuneRound;
  const boxes = tuneAxes.map((axis) => byId(axis.box));
  if (!/^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(foreground || '')) { boxes.forEach((box) => box.replaceChildren()); return; }
  const base = oklchOf(foreground);
  const found = await measureTracks(base, bg, round);
  if (round !== tuneRound) return;
  if (!found) { boxes.forEach((box) => box.replaceChildren()); return; }
  // The color the sliders stand at, from both of them.
  const current = () => tuneAxes.reduce((c, axis) => axis.at(c, Number(byId(axis.id).value)), base);
  tuneAxes.forEach((axis, k) => {
    const slider = el('input', { type: 'range', id: axis.id, min: '0', max: '100', step: '1', value: String(axis.step(base)), list: axis.list,
      'aria-describedby': `${axis.text} ${axis.ratio}`, 'aria-valuetext': axis.word(axis.step(base)) });
    slider.addEventListener('input', () => {
      slider.setAttribute('aria-valuetext', axis.word(Number(slider.value)));
      byId('pair-fg').value = oklchText(current());
      measurePair({ tuning: true }).catch(report);
    });
    // Let go, the other track's marks are measured again at the color it now stands at.
    slider.addEventListener('change', () => {
      const again = ++tuneRound;
      measureTracks(current(), bg, again).then((marks) => { if (marks) tuneAxes.forEach((a, j) => drawAxisMarks(a, marks[j])); }).catch(report);
    });
    boxes[k].replaceChildren(
      el('label', { for: axis.id, text: axis.label }),
      el('div', { class: 'tune-track' }, slider), el('datalist', { id: axis.list }), ' ',
      el('output', { id: axis.ratio, for: axis.id, text: display }),
      el('p', { id: axis.text, class: 'muted' }));
    drawAxisMarks(axis, found[k]);
  });
}

let pairRound = 0;
async function measurePair({ tuning = false } = {}) {
  const round = ++pairRound;
  const fg = byId('pair-fg').value.trim();
  const bg = byId('pair-bg').value.trim();
  const out = byId('pair-result');
  if (!fg || !bg) { out.replaceChildren(el('p', { text: 'Type a foreground and a background color.' })); return; }
  const query = `fg=${encodeURIComponent(fg)}&bg=${encodeURIComponent(bg)}`;
  const measured = await api('GET', `/v1/contrast?${query}`);
  if (round !== pairRound) return;
  const answer = parseJSON(measured.text);
  if (!measured.ok || !answer) {
    if (!tuning) { tuneRound++; tuneAxes.forEach((axis) => byId(axis.box).replaceChildren()); }
    out.replaceChildren(el('p', { class: 'pair-error', text: (answer && answer.detail) || `The service answered ${measured.status}.` }));
    return;
  }
  // A pair with light-dark() is answered per scheme; it must pass in both.
  const schemes = answer.ratio === undefined ? Object.entries(answer) : [['', answer]];
  // The slider follows a typed foreground; moved, it keeps its track and shows the new ratio.
  if (tuning) tuneAxes.forEach((axis) => { if (byId(axis.ratio)) byId(axis.ratio).textContent = schemes.length === 1 ? answer.display : ''; });
  if (!tuning) buildTune(schemes.length === 1 ? answer.foreground : null, bg, answer.display).catch(report);
  const parts = [];
  for (const [scheme, pair] of schemes) {
    const drawn = pair.composited || { foreground: pair.foreground, background: pair.background };
    const title = scheme ? `In the ${scheme} scheme: ` : '';
    const verdicts = el('table', { class: 'pair-verdicts' },
      el('caption', { text: `${title}${pair.display} (WCAG 2.2, floored), APCA Lc ${pair.apca.toFixed(1)}` }),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Use' }), el('th', { scope: 'col', text: 'AA' }), el('th', { scope: 'col', text: 'AAA' }))));
    const body = el('tbody');
    for (const [usage, name] of [['text', 'Text'], ['large-text', 'Large text'], ['non-text', 'Non-text (UI, graphics)']]) {
      const levels = pair.verdicts[usage] || {};
      const cell = (level) => (levels[level] === undefined ? el('td', { text: '—' })
        : el('td', {}, el('span', { class: levels[level] ? 'verdict-pass' : 'verdict-fail', text: levels[level] ? 'PASS' : 'FAIL' })));
      body.append(el('tr', {}, el('th', { scope: 'row', text: name }), cell('AA'), cell('AAA')));
    }
    verdicts.append(body);
    const specimen = el('span', { class: 'swatch pair-specimen', role: 'img', style: `color:${drawn.foreground};background:${drawn.background}`,
      'aria-label': `${pair.foreground} on ${pair.background}${pair.composited ? ` (drawn as ${drawn.foreground} on ${drawn.background})` : ''}, ${pair.display}`,
      'data-sample': 'Sample text Aa' });
    const notes = [];
    if (pair.composited) notes.push(`The translucent foreground is measured as drawn: ${drawn.foreground} on ${drawn.background}.`);
    if (pair.cvd) notes.push(`Worst under a color-vision deficiency: ${pair.cvd.display} as ${pair.cvd.deficiency} sees it.`);
    parts.push(el('div', { class: 'pair-scheme', 'data-scheme': scheme }, specimen, verdicts, ...notes.map((n) => el('p', { class: 'muted', text: n }))));
  }
  const fixes = el('div', { class: 'pair-fixes' });
  if (schemes.length > 1) {
    out.replaceChildren(...parts, el('p', { class: 'muted', text: 'Nearest fixes are found for one scheme at a time: type that scheme\u2019s two colors to see them.' }));
    return;
  }
  const suggested = await api('POST', '/v1/suggest', { body: JSON.stringify({ fg, bg }) });
  if (round !== pairRound) return;
  const advice = parseJSON(suggested.text);
  if (!suggested.ok || !advice) {
    fixes.append(el('p', { class: 'muted', text: `No nearest fixes: ${(advice && advice.detail) || suggested.status}` }));
  } else if (advice.passes || !advice.suggestions) {
    fixes.append(el('p', { text: `Passes ${advice.target}: no fix needed.` }));
  } else {
    fixes.append(el('p', { text: `Nearest colors that reach ${advice.target}:` }));
    const list = el('ul', { class: 'fix-list' });
    const use = (field, hex, label) => {
      const button = el('button', { type: 'button', class: 'secondary', 'data-field': field, text: label });
      button.addEventListener('click', () => { byId(field).value = hex; measurePair().catch(report); });
      return button;
    };
    const s = advice.suggestions;
    if (s.foreground && s.foreground[0]) list.append(el('li', {}, use('pair-fg', s.foreground[0].hex, `Foreground ${s.foreground[0].hex} (${s.foreground[0].display})`)));
    if (s.background && s.background[0]) list.append(el('li', {}, use('pair-bg', s.background[0].hex, `Background ${s.background[0].hex} (${s.background[0].display})`)));
    if (s.both) {
      const both = el('button', { type: 'button', class: 'secondary', 'data-field': 'both', text: `Both: ${s.both.foreground.hex} on ${s.both.background.hex}` });
      both.addEventListener('click', () => { byId('pair-fg').value = s.both.foreground.hex; byId('pair-bg').value = s.both.background.hex; measurePair().catch(report); });
      list.append(el('li', {}, both));
    }
    fixes.append(list);
  }
  out.replaceChildren(...parts, fixes);
}

// ---------------------------------------------------------------------------------------------
// Wiring

function openFromHash() {
  const match = /^#palette=([^&]+)(?:&theme=([^&]+))?(?:&edits=(.*))?$/.exec(location.hash);
  if (!match) return;
  let name, theme = '';
  try {
    name = decodeURIComponent(match[1]);
    if (match[2] !== undefined) theme = decodeURIComponent(match[2]);
  } catch (error) { setStatus('The address names no palette this page can open.'); return; }
  const edits = match[3] === undefined ? null : match[3];
  state.theme = theme;
  if (edits !== null || name !== state.name || !state.served) openServed(name, { edits }).catch(report);
  else showTheme();
}

// Shows the chosen theme only (its tokens, what changed in it and its audit), or every theme.
// A theme the palette does not have is said, and every theme shown.
function showTheme() {
  const select = byId('theme');
  const names = state.listing ? state.listing.themes.map((t) => t.name) : [];
  if (state.listing && Array.from(select.options).slice(1).map((o) => o.value).join('\n') !== names.join('\n')) {
    select.replaceChildren(el('option', { value: '', text: 'every theme' }), ...names.map((n) => el('option', { value: n, text: n })));
  }
  if (state.theme && state.listing && !names.includes(state.theme)) {
    setStatus(`${state.name} has no theme "${state.theme}": every theme is shown.`);
    state.theme = '';
  }
  select.value = state.theme;
  const shown = (theme) => !state.theme || theme === '' || theme === state.theme;
  for (const node of document.querySelectorAll('#editor fieldset[data-theme], #changes section[data-theme], #audit-view .theme-block[data-theme]')) {
    node.hidden = !shown(node.dataset.theme);
  }
  const root = byId('workbench');
  if (state.theme) root.dataset.theme = state.theme; else root.removeAttribute('data-theme');
}

async function wire() {
  await loadFormats();
  for (const link of document.querySelectorAll('a.open-palette')) {
    link.addEventListener('click', (event) => {
      // A modified click opens the report in a new tab or window, as links do.
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      state.theme = '';
      openServed(link.dataset.palette).catch(report);
    });
  }
  byId('vision').addEventListener('change', () => { applyVision().catch(report); });
  byId('theme').addEventListener('change', () => {
    state.theme = byId('theme').value;
    showTheme();
    rememberInAddress().catch(report);
  });
  let pairTimer = null;
  const pairLater = () => { clearTimeout(pairTimer); pairTimer = setTimeout(() => { measurePair().catch(report); }, 200); };
  byId('pair-fg').addEventListener('input', pairLater);
  byId('pair-bg').addEventListener('input', pairLater);
  byId('pair-measure').addEventListener('click', () => { measurePair().catch(report); });
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
    const filename = state.file;
    download(filename, currentText(), bodyType());
    state.saved = currentText();
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
      const answer = await api('POST', auditPath(), { body: currentText(), accept: 'text/markdown', type: bodyType() });
      if (!answer.ok) { unavailable(); return; }
      download(`${state.name}-audit.md`, answer.text, 'text/markdown');
    } catch (error) {
      report(error);
    }
  });
  byId('revert').addEventListener('click', () => {
    if (currentText() === state.original) { setStatus('There are no edits to undo.'); return; }
    if (hasUnsavedEdits() && !window.confirm(`Undo every edit of ${state.name}? They were not downloaded.`)) return;
    state.doc = new EditableDocument(state.original, state.css);
    keepDraft();
    mirrorBrought();
    state.rows = new Map();
    state.proposal = null;
    clearTimeout(state.timer);
    state.timer = null;
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

// A module runs after the document is parsed, like a deferred script.
wire().catch(report);
