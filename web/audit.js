// The audit view: the report rendered by the service (the same renderer as the nightly
// report), what the edits changed per theme, the palette's problems, and "View as".

import { api, parseJSON } from './api.js';
import { byId, el, plural, report, setStatus } from './dom.js';
import { pointerSegments } from './document.js';

// The report's headings start at h2; under this page's "Audit" (h3) they move down two levels.
function demoteHeadings(root) {
  for (const heading of root.querySelectorAll('h2, h3, h4')) {
    const lower = el(`h${Math.min(Number(heading.tagName[1]) + 2, 6)}`);
    for (const attribute of heading.attributes) lower.setAttribute(attribute.name, attribute.value);
    lower.append(...heading.childNodes);
    heading.replaceWith(lower);
  }
}

// A specimen is a color pair shown in its own colors: a swatch (role="img", named by its
// aria-label with both colors and the ratio), a fix swatch, a cell of the contrast grid. Its
// text is drawn in the pair's colors, failing ones included (that is what it shows), so it is
// drawn as generated content (app.css) rather than kept as text: assistive technology still
// reads it (and the labels), and a checker of the page's own text contrast no longer takes the
// specimens for the page's text.
function pictureSpecimens(root) {
  for (const node of root.querySelectorAll('[style]')) {
    const style = node.getAttribute('style');
    if (!/(^|;)\s*color:/.test(style) || !/(^|;)\s*background(-color)?:/.test(style)) continue;
    const parts = Array.from(node.childNodes);
    if (parts.length === 0 || parts.some((part) => part.nodeType !== Node.TEXT_NODE && part.nodeName !== 'BR')) continue;
    node.dataset.sample = parts.map((part) => (part.nodeName === 'BR' ? '\n' : part.nodeValue)).join('');
    node.replaceChildren();
  }
}

// Each theme's part of the report (from its heading to the next heading of its level) in a
// block of its own, so that the page can show one theme.
function wrapThemes(root, themes) {
  for (const section of root.querySelectorAll('section[aria-labelledby]')) {
    const anchor = section.getAttribute('aria-labelledby');
    const ids = new Map(themes.map((t) => [`${anchor}-${t}`, t]));
    let block = null;
    let level = 0;
    for (const node of Array.from(section.childNodes)) {
      const heading = node.nodeType === Node.ELEMENT_NODE && /^H[1-6]$/.test(node.nodeName) ? Number(node.nodeName[1]) : 0;
      if (heading && ids.has(node.id)) {
        block = el('div', { class: 'theme-block', 'data-theme': ids.get(node.id) });
        level = heading;
        node.before(block);
      } else if (block && heading && heading <= level) {
        block = null;
      }
      if (block) block.append(node);
    }
  }
}

// The audit report of the current proposal (a proposal's answer wraps it with a comparison).
export function auditOf(state) {
  return state.proposal && (state.served ? state.proposal.audit : state.proposal);
}

// The fix a swatch shows, from the audit JSON (its changes and, with ?include=effects, what
// else it changes).
export function fixOf(state, fix) {
  const row = fix.closest('tr');
  const audit = auditOf(state);
  if (!row || !audit || !audit.palettes || !audit.palettes[0]) return null;
  const theme = audit.palettes[0].themes.find((t) => t.name === row.dataset.theme);
  const result = theme && theme.results.find((r) => r.id === row.dataset.check);
  return (result && (result.fixes || []).find((f) => f.kind === fix.dataset.fix)) || null;
}

// What a fix does besides its own check, in words, from the service's measurement (the palette
// audited again with the fix applied): "fixes this; breaks body-text (15.96 → 4.34)".
export function effectNote(effect, theme) {
  if (!effect) return null;
  if (effect.unmeasured) return { text: `what else it changes was not measured: ${effect.unmeasured}`, breaks: 0, measured: false };
  const where = (c) => (c.after.theme !== theme ? ` in ${c.after.theme}` : '');
  const told = (v) => (v === 'pass' ? 'told apart' : 'confusable');
  const change = (c) => (c.after.kind === 'distinct'
    ? `${c.after.check}${where(c)} (${told(c.before.verdict)} → ${told(c.after.verdict)})`
    : `${c.after.check}${where(c)} (${c.before.ratio.toFixed(2)} → ${c.after.ratio.toFixed(2)})`);
  const parts = [effect.fixes ? 'fixes this' : 'does not make this pass'];
  if (effect.breaks.length) parts.push(`breaks ${effect.breaks.map(change).join(', ')}`);
  if (effect.lowers.length) parts.push(`lowers ${effect.lowers.map((c) => `${change(c).slice(0, -1)}, ${c.before.achieved} → ${c.after.achieved})`).join(', ')}`);
  if (effect.improves.length) parts.push(`also improves ${plural(effect.improves.length, 'check')}`);
  if (!effect.breaks.length && !effect.lowers.length) parts.push('breaks nothing');
  return { text: parts.join('; '), breaks: effect.breaks.length, measured: true };
}

// Each fix swatch with its label and what else it changes, the fixes that break nothing first
// and a breaking one marked: the report lists them as "Nearest passing: text ▣ background ▣".
function annotateFixes(state, view) {
  for (const box of view.querySelectorAll('.fixes')) {
    const row = box.closest('tr');
    const theme = row ? row.dataset.theme : '';
    const items = [];
    let label = '';
    let lead = null;
    for (const node of Array.from(box.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.nodeValue.trim();
        if (text.includes(':')) {
          const [before, after] = text.split(/:(.*)/s);
          lead = `${before}:`;
          label = (after || '').trim();
        } else {
          label = text;
        }
        continue;
      }
      if (node.nodeType === Node.ELEMENT_NODE && node.matches('.fix[data-fix]')) {
        const fix = fixOf(state, node);
        const note = fix ? effectNote(fix.effect, theme) : null;
        items.push({ label, swatch: node, note });
        label = '';
      }
    }
    if (items.length === 0) continue;
    // Measured and breaking nothing, then not measured, then breaking (fewest breaks first).
    const rank = (item) => (!item.note || !item.note.measured ? 1 : item.note.breaks > 0 ? 2 + item.note.breaks / 1000 : 0);
    items.sort((a, b) => rank(a) - rank(b));
    const list = el('ul', { class: 'fix-list' });
    for (const item of items) {
      const li = el('li', { class: `fix-item${item.note && item.note.breaks ? ' breaking' : ''}` });
      if (item.label) li.append(el('span', { class: 'fix-kind', text: item.label }), ' ');
      li.append(item.swatch);
      if (item.note) {
        item.swatch.dataset.effect = item.note.text;
        li.append(' ', el('span', { class: 'effect', text: item.note.breaks ? `\u26a0 ${item.note.text}` : item.note.text }));
      }
      list.append(li);
    }
    box.replaceChildren(...(lead ? [lead] : []), list);
  }
}

// The changes a fix swatch makes, from the audit JSON (each failing result lists its `fixes`:
// where each suggested color goes in the document); the HTML only names the fix.
export function fixChanges(state, fix) {
  const found = fixOf(state, fix);
  return found ? found.changes : [];
}

// Shows the report's HTML (from the same answer as the audit JSON) and makes each fix swatch
// whose changes can be made in this document a button.
export function renderAudit(state, html) {
  // The report's own style sheet is already part of /app.css; parsing its inline copy would
  // break this page's Content-Security-Policy (style-src 'self'), so it is left out.
  const page = new DOMParser().parseFromString(html.replace(/<style>[\s\S]*?<\/style>/, ''), 'text/html');
  const main = page.querySelector('main');
  const view = byId('audit-view');
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(main ? main.childNodes : []).map((node) => document.importNode(node, true)));
  demoteHeadings(fragment);
  pictureSpecimens(fragment);
  wrapThemes(fragment, ((auditOf(state) && auditOf(state).palettes[0] && auditOf(state).palettes[0].themes) || []).map((t) => t.name));
  // A theme's table of checks (one row per check, not the side-by-side comparison): on a
  // phone each row is a card (app.css).
  for (const table of fragment.querySelectorAll('table')) {
    if (table.querySelector(':scope > tbody > tr[data-verdict]') && !table.closest('.side-by-side')) table.classList.add('results');
  }
  view.replaceChildren(fragment);
  view.classList.remove('stale');
  applyVision().catch(report);
  annotateFixes(state, view);
  for (const fix of view.querySelectorAll('.fix[data-fix]')) {
    const changes = fixChanges(state, fix);
    if (changes.length === 0) continue;
    const row = fix.closest('tr');
    const theme = row ? row.dataset.theme : '';
    const check = row ? row.dataset.check : '';
    if (!changes.every((c) => state.doc.canApply(c))) {
      // Written outside this document (a checks file beside a tokens file, a stylesheet an
      // imported one): not applicable here.
      fix.title = 'This color is written in another file; change it there.';
      fix.setAttribute('aria-label', `${(fix.dataset.sample || fix.textContent).trim()}: ${fix.title}`);
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
    const label = `Apply ${changes.map((c) => c.value).join(' and ')} to ${targets.join(' and ')}${fix.dataset.effect ? `: ${fix.dataset.effect}` : ''}`;
    fix.setAttribute('role', 'button');
    fix.setAttribute('tabindex', '0');
    fix.setAttribute('aria-label', label);
    fix.dataset.changes = JSON.stringify(changes);
    fix.title = label;
  }
}

// What the change did: per theme, what regressed, what improved, what still fails.
export function renderChanges(state, answer) {
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

export function renderProblems(container, problems) {
  const items = problems.map((p) => {
    const where = p.location ? ` (line ${p.location.line}, column ${p.location.column})` : '';
    return el('li', {}, el('code', { text: p.pointer || '/' }), `${where}: ${p.message}`);
  });
  container.replaceChildren(el('ul', { class: 'problems' }, ...items));
}

// "View as": every color of the workbench as the chosen color-vision deficiency sees it. The
// service simulates them (POST /v1/simulate); the page keeps each element's own style in
// data-normal-style and swaps it back for normal vision.
const hexColor = /#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?\b/g;
let visionRound = 0;
export async function applyVision() {
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
