// The token editor: one row per token of each theme, and one per badge color and check's own
// color, with a text field (any CSS color or an alias) and a color picker. A row edits the value where the service says it is written; a
// token written in another file is shown read-only.

import { byId, el } from './dom.js';
import { pointerSegments } from './document.js';

// The colors the audit measures that are not theme tokens but written in the document: a
// badge's text, background and border, and a check's own literal color (`"background": "#fff"`
// rather than a token's name). The listing gives each its span (`checkColors`) and whose it is.
export function ownColors(listing, doc) {
  return (listing.checkColors || []).filter((place) => {
    if (!doc.values.has(place.pointer)) return false;
    if (place.pointer.startsWith('/badges/')) return true;
    // A check's field names a token, or is a color of its own: only the latter is a color here.
    const written = doc.source(place.pointer);
    let value;
    try { value = JSON.parse(written); } catch (error) { return false; }
    return typeof value === 'string' && /^(#|[a-z-]+\()/i.test(value.trim());
  });
}

// Every pointer the editor has a row for.
export function editedPointers(listing, doc) {
  return [...listing.themes.flatMap((theme) => theme.tokens.map((token) => token.pointer)), ...ownColors(listing, doc).map((p) => p.pointer)];
}

// A color picker has no alpha: a translucent color is shown beside it as it is, over a
// checkerboard, so its alpha shows (hidden while the color is opaque).
function alphaSwatch(name) {
  const swatch = el('span', { class: 'alpha-swatch', role: 'img', hidden: true, 'data-name': name });
  swatch.append(el('span', { class: 'alpha-fill' }));
  return swatch;
}

function showAlpha(row, hex) {
  const swatch = row.querySelector('.alpha-swatch');
  if (!swatch) return;
  const translucent = /^#[0-9a-f]{8}$/i.test(hex || '') && !/ff$/i.test(hex);
  swatch.hidden = !translucent;
  if (!translucent) return;
  const alpha = parseInt(hex.slice(7), 16) / 255;
  swatch.firstChild.style.backgroundColor = hex;
  swatch.setAttribute('aria-label', `${swatch.dataset.name}: ${hex}, ${Math.round(alpha * 100)}% opaque, over a checkerboard`);
}

const literal = (doc, pointer) => {
  try { return JSON.parse(doc.source(pointer)); } catch (error) { return doc.source(pointer); }
};

// Builds the rows of `listing` for the document `doc`; `onEdit(row, value)` is called for
// every change a designer makes.
export function buildEditor(state, listing, onEdit) {
  const editor = byId('editor');
  const doc = state.doc;
  // A rebuild (a fix added an override) keeps the field being typed in focused, caret and all.
  const active = editor.contains(document.activeElement) ? document.activeElement : null;
  const keep = active && active.closest('.token')
    ? { pointer: active.closest('.token').dataset.pointer, picker: active.type === 'color',
      start: active.type === 'text' ? active.selectionStart : null, end: active.type === 'text' ? active.selectionEnd : null }
    : null;
  editor.replaceChildren();
  state.rows = new Map();
  let counter = 0;
  for (const theme of listing.themes) {
    const fieldset = el('fieldset', { 'data-theme': theme.name },
      el('legend', { text: theme.extends ? `${theme.name} (extends ${theme.extends})` : theme.name }));
    for (const token of theme.tokens) {
      const id = `token-${counter++}`;
      const editable = doc.values.has(token.pointer);
      const notes = [];
      if (token.assumed) notes.push(el('span', { class: 'hint muted', id: `${id}-hint`, text: `Assumed: ${token.assumed}` }));
      if (!editable) notes.push(el('span', { class: 'hint muted', id: `${id}-elsewhere`, text: 'Written in another file: change it there.' }));
      // A stylesheet's value is shown as written; a DTCG color object as its hex, which is
      // also how an edit writes it back.
      const shown = doc.css && editable ? doc.source(token.pointer) : doc.objects.has(token.pointer) && token.hex ? token.hex : token.value;
      const describedBy = [`${id}-message`, ...notes.map((n) => n.id)].join(' ');
      const text = el('input', { type: 'text', id, value: shown, spellcheck: 'false', autocomplete: 'off',
        'aria-describedby': describedBy, 'data-pointer': token.pointer });
      const picker = el('input', { type: 'color', id: `${id}-picker`, 'aria-label': `${token.name} in ${theme.name}: pick a color` });
      if (!editable) {
        text.readOnly = true;
        picker.disabled = true;
      }
      const row = el('div', { class: 'token', 'data-token': token.name, 'data-theme': theme.name, 'data-pointer': token.pointer },
        el('label', { for: id, text: token.name }), el('span', { class: 'pick' }, picker, alphaSwatch(`${token.name} in ${theme.name}`)), text,
        el('span', { class: 'message', id: `${id}-message`, role: 'status' }), ...notes);
      text.addEventListener('input', () => onEdit(row, text.value));
      picker.addEventListener('input', () => {
        const current = row.dataset.hex || '';
        // A translucent token keeps its alpha when its color is picked.
        const alpha = current.length === 9 ? current.slice(7) : '';
        text.value = picker.value + alpha;
        onEdit(row, text.value);
      });
      state.rows.set(token.pointer, row);
      fieldset.append(row);
    }
    if (theme.inherited.length > 0) {
      const from = new Map();
      for (const t of theme.inherited) from.set(t.from, [...(from.get(t.from) || []), t.name]);
      const parts = Array.from(from, ([base, names]) => `${names.join(', ')} from ${base || 'another theme'}`);
      const how = doc.css ? 'Edit them in the theme that defines them.' : 'Edit them in the theme that defines them, or apply a fix swatch to override one in this theme only.';
      fieldset.append(el('p', { class: 'inherited muted', text: `Inherited: ${parts.join('; ')}. ${how}` }));
    }
    editor.append(fieldset);
  }
  const own = ownColors(listing, doc);
  if (own.length > 0) {
    const fieldset = el('fieldset', { 'data-theme': '', class: 'own-colors' },
      el('legend', { text: 'Badges and checks\u2019 own colors (every theme)' }));
    for (const place of own) {
      const id = `token-${counter++}`;
      const where = pointerSegments(place.pointer);
      const field = where[where.length - 1];
      const owner = place.owner ? place.owner.replace(/^badge:/, 'badge ') : where.slice(0, -1).join('/');
      const name = `${owner} ${field}`;
      const text = el('input', { type: 'text', id, value: literal(doc, place.pointer), spellcheck: 'false', autocomplete: 'off',
        'aria-describedby': `${id}-message`, 'data-pointer': place.pointer });
      const picker = el('input', { type: 'color', id: `${id}-picker`, 'aria-label': `${name}: pick a color` });
      const row = el('div', { class: 'token', 'data-token': name, 'data-theme': '', 'data-pointer': place.pointer, 'data-owner': place.owner || '' },
        el('label', { for: id, text: name }), el('span', { class: 'pick' }, picker, alphaSwatch(name)), text, el('span', { class: 'message', id: `${id}-message`, role: 'status' }));
      text.addEventListener('input', () => onEdit(row, text.value));
      picker.addEventListener('input', () => {
        const current = row.dataset.hex || '';
        const alpha = current.length === 9 ? current.slice(7) : '';
        text.value = picker.value + alpha;
        onEdit(row, text.value);
      });
      state.rows.set(place.pointer, row);
      fieldset.append(row);
    }
    editor.append(fieldset);
  }
  const again = keep && state.rows.get(keep.pointer);
  if (again) {
    const field = again.querySelector(keep.picker ? 'input[type=color]' : 'input[type=text]');
    field.focus();
    if (keep.start !== null) field.setSelectionRange(keep.start, keep.end);
  }
}

// Shows each token's resolved color and problem, and marks the tokens whose value differs from
// the document as opened (`state.before`, pointer -> value as written), so a reopened draft
// marks exactly the tokens it changed; an override added by a fix is new, so it is edited.
export function updateEditor(state, listing) {
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
      showAlpha(row, token.hex);
      row.querySelector('.message').textContent = token.problem || '';
      if (token.problem) text.setAttribute('aria-invalid', 'true'); else text.removeAttribute('aria-invalid');
      const before = state.before ? state.before.get(token.pointer) : state.doc.source(token.pointer);
      row.classList.toggle('changed', before === undefined || before !== state.doc.source(token.pointer));
    }
  }
  for (const place of ownColors(listing, state.doc)) {
    const row = state.rows.get(place.pointer);
    if (!row) continue;
    const value = String(literal(state.doc, place.pointer)).trim();
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value) ? value.toLowerCase() : null;
    if (hex) {
      const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
      row.dataset.hex = full;
      row.querySelector('input[type=color]').value = full.slice(0, 7);
    }
    showAlpha(row, hex && hex.length === 9 ? hex : null);
    const before = state.before ? state.before.get(place.pointer) : state.doc.source(place.pointer);
    row.classList.toggle('changed', before !== undefined && before !== state.doc.source(place.pointer));
  }
}

// The value of every token as written, by pointer: what "edited" is measured against.
export function writtenValues(doc) {
  return new Map(Array.from(doc.values.keys(), (pointer) => [pointer, doc.source(pointer)]));
}
