// Editing a document in place: a token file (JSON or JSON5), a palette or a stylesheet. The
// service says where each value is written (POST /v1/tokens answers a span of UTF-8 byte
// offsets for every token, every check color and every place an override goes), so the page
// never reads the document itself: it replaces exactly those bytes, and the downloaded file
// differs from the original by the edited values alone (key order, spacing, comments and line
// ends all kept).

const encoder = new TextEncoder();
// A byte-order mark is kept as it is: it is part of the bytes the offsets count.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function pointerSegments(pointer) {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function pointerOf(segments) {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

// A W3C Design Tokens color is an object ({colorSpace, components, alpha, hex}): a hex color
// written over one stays one, so the file remains a valid tokens file. Other CSS text is
// written as text, which contrast reads too.
export function designTokenValue(object, value) {
  const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value);
  if (!object || !hex) return value;
  const channel = (i) => parseInt(hex[1].slice(i, i + 2), 16) / 255;
  const color = { colorSpace: 'srgb', components: [channel(0), channel(2), channel(4)] };
  if (hex[2]) color.alpha = Math.round(parseInt(hex[2], 16) / 255 * 1000) / 1000;
  color.hex = `#${hex[1].toLowerCase()}`;
  return color;
}

// The spans of a listing's `members` of a color object, by member (`components/0`, `alpha`…).
function memberSpans(members) {
  if (!members) return [];
  const spans = [];
  for (const name of ['colorSpace', 'alpha', 'hex']) if (members[name]) spans.push([name, members[name]]);
  (members.components || []).forEach((span, i) => spans.push([`components/${i}`, span]));
  return spans;
}

// A value written into JSON, on one line.
function inline(v) {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

const isSpace = (b) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

// The document being edited and where its values are written, kept in step: every edit moves
// the spans after it by the bytes it added or removed. `listing` is POST /v1/tokens's answer
// for exactly `text`.
export class EditableDocument {
  constructor(text, css) {
    this.text = text;
    this.bytes = encoder.encode(text);  // the text as UTF-8: what the spans count
    this.css = css;
    this.values = new Map();     // JSON pointer -> {start, end}: a token's value or a check's color
    this.parents = new Map();    // JSON pointer -> {start, end, membersEnd}: an object overrides go in
    this.objects = new Set();    // pointers of values written as objects (a typed hex stays one)
    this.members = new Map();    // `${pointer} ${member}` -> {start, end}: a DTCG color object's own values
    this.shelved = new Map();    // pointer -> a color object's text and member offsets, while a partial hex is typed over it
  }

  // Takes the spans of a listing of this very text (the caller drops listings of older text).
  useSpans(listing) {
    this.values = new Map();
    this.parents = new Map();
    this.members = new Map();
    for (const theme of listing.themes) {
      for (const token of theme.tokens) {
        if (!token.span) continue;
        this.values.set(token.pointer, { start: token.span.start, end: token.span.end });
        if (!this.css && this.source(token.pointer).startsWith('{')) this.objects.add(token.pointer);
        // A DTCG color object's members, each where the service read it (POST /v1/tokens's
        // `members`): an edit replaces those bytes only.
        for (const [member, span] of memberSpans(token.members)) this.members.set(`${token.pointer} ${member}`, { start: span.start, end: span.end });
      }
    }
    for (const place of listing.checkColors || []) this.values.set(place.pointer, { start: place.span.start, end: place.span.end });
    for (const o of listing.overrideParents || []) this.parents.set(o.pointer, { start: o.span.start, end: o.span.end, membersEnd: o.membersEnd });
  }

  // The value at `pointer` as written (JSON text, or a stylesheet's declaration value).
  source(pointer) {
    const span = this.values.get(pointer);
    return span ? decoder.decode(this.bytes.subarray(span.start, span.end)) : undefined;
  }

  // Whether a change of a fix can be made here (its value is written in this document, or an
  // override of it has a place).
  canApply(change) {
    return this.values.has(change.pointer) || (Boolean(change.override) && this.parentOf(change.pointer) !== undefined);
  }

  // The deepest object on the way to `pointer` that an override can go in.
  parentOf(pointer) {
    const segments = pointerSegments(pointer);
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const parent = pointerOf(segments.slice(0, depth));
      if (this.parents.has(parent)) return parent;
    }
    return undefined;
  }

  // Replaces the bytes start..<end with `insert`, and moves every span after them.
  splice(start, end, insert) {
    const bytes = this.bytes;
    if (start < 0 || end < start || end > bytes.length) throw new Error(`no bytes ${start}..${end} in a ${bytes.length}-byte document`);
    const inserted = encoder.encode(insert);
    const added = inserted.length - (end - start);
    const next = new Uint8Array(bytes.length + added);
    next.set(bytes.subarray(0, start), 0);
    next.set(inserted, start);
    next.set(bytes.subarray(end), start + inserted.length);
    this.bytes = next;
    this.text = decoder.decode(next);
    const move = (map) => {
      for (const [pointer, span] of map) {
        if (span.start >= end) {
          span.start += added;
          span.end += added;
          if (span.membersEnd !== undefined) span.membersEnd += added;
        } else if (span.end <= start) {
          // Before the edit: unchanged.
        } else if (span.start <= start && span.end >= end) {
          span.end += added;  // the edited value, or an object around it
          if (span.membersEnd !== undefined && span.membersEnd >= end) span.membersEnd += added;
        } else {
          map.delete(pointer);  // cut by the edit: the next listing says where it is
        }
      }
    };
    move(this.values);
    move(this.parents);
    move(this.members);
  }

  // Sets the value at `pointer`: in a stylesheet as typed, in JSON as a string (or as a DTCG
  // color object where one is written: a color object stays one even while a hex is typed
  // into it character by character; the partial text is written as a string until it is a
  // whole hex color again).
  set(pointer, value) {
    const span = this.values.get(pointer);
    if (!span) throw new Error(`${pointer} is not written in this document`);
    if (!this.css && this.objects.has(pointer) && this.setMembers(pointer, value)) return;
    if (!this.css && this.objects.has(pointer) && !this.shelved.has(pointer) && this.member(pointer, 'colorSpace')) this.shelve(pointer);
    const text = this.css ? value : JSON.stringify(designTokenValue(this.objects.has(pointer), value));
    this.splice(span.start, span.end, text);
  }

  member(pointer, name) { return this.members.get(`${pointer} ${name}`); }

  memberText(pointer, name) {
    const span = this.member(pointer, name);
    return span ? decoder.decode(this.bytes.subarray(span.start, span.end)) : undefined;
  }

  // Keeps a color object's text and where its members are in it, so that once a partial hex
  // typed over it is whole again the object comes back as it was written, edited in place.
  shelve(pointer) {
    const span = this.values.get(pointer);
    const at = [];
    for (const [key, m] of this.members) {
      if (key.startsWith(`${pointer} `) && m.start >= span.start && m.end <= span.end) at.push([key, m.start - span.start, m.end - span.start]);
    }
    this.shelved.set(pointer, { bytes: this.bytes.slice(span.start, span.end), at });
  }

  // Writes a hex color into a DTCG sRGB color object member by member: each component, the
  // alpha and the hex are replaced where they are written, a value whose color does not change
  // keeps its bytes, and the object keeps its layout, key order and fields. False when that
  // cannot be done (another color space, no spans, a translucent color and no alpha member):
  // the caller writes the whole value.
  setMembers(pointer, value) {
    const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value);
    if (!hex) return false;
    if (!this.member(pointer, 'colorSpace') && this.shelved.has(pointer)) {
      // A partial hex was typed over the object: the object is written back first.
      const span = this.values.get(pointer);
      const kept = this.shelved.get(pointer);
      this.splice(span.start, span.end, decoder.decode(kept.bytes));
      for (const [key, start, end] of kept.at) this.members.set(key, { start: span.start + start, end: span.start + end });
      this.shelved.delete(pointer);
    }
    const space = this.memberText(pointer, 'colorSpace');
    if (space === undefined || !/^(["'])srgb\1$/.test(space.trim())) return false;
    const components = [0, 1, 2].map((i) => this.member(pointer, `components/${i}`));
    if (components.some((c) => !c) || this.member(pointer, 'components/3')) return false;
    const alpha = hex[2] ? Math.round(parseInt(hex[2], 16) / 255 * 1000) / 1000 : 1;
    if (alpha !== 1 && !this.member(pointer, 'alpha')) return false;
    const edits = [];
    const number = (name, wanted, same) => {
      const written = Number(this.memberText(pointer, name));
      if (!same(written)) edits.push([name, JSON.stringify(wanted)]);
    };
    for (let i = 0; i < 3; i++) {
      const byte = parseInt(hex[1].slice(2 * i, 2 * i + 2), 16);
      number(`components/${i}`, byte / 255, (w) => Number.isFinite(w) && Math.round(w * 255) === byte);
    }
    if (this.member(pointer, 'alpha')) number('alpha', alpha, (w) => w === alpha);
    const written = this.memberText(pointer, 'hex');
    if (written !== undefined) {
      const quote = /^'/.test(written) ? "'" : '"';
      const wanted = `#${hex[1].toLowerCase()}`;
      const now = written.slice(1, -1);
      // A hex member holds the color without its alpha, as DTCG writes it.
      if (now.toLowerCase() !== wanted) edits.push(['hex', `${quote}${/^#[0-9A-F]{6}$/.test(now) ? wanted.toUpperCase() : wanted}${quote}`]);
    }
    for (const [name, text] of edits) {
      const span = this.member(pointer, name);
      this.splice(span.start, span.end, text);
    }
    return true;
  }

  // Makes the changes of a fix: each in place, or as a new override of an inherited token
  // (written as a DTCG color object when `isObject(change)` says the token it overrides is
  // one), added after the last member of the deepest object on its way, in that object's
  // indentation. Overrides that go in one object are written as one member each per new key,
  // so two of them never write the same key twice.
  applyAll(changes, isObject = () => false) {
    const groups = new Map();  // parent pointer -> the members to add, as a tree
    for (const change of changes) {
      if (this.values.has(change.pointer)) {
        this.set(change.pointer, change.value);
        continue;
      }
      const parent = change.override ? this.parentOf(change.pointer) : undefined;
      if (parent === undefined) throw new Error(`${change.pointer} is not written in this document`);
      const object = isObject(change);
      if (object) this.objects.add(change.pointer);
      const value = designTokenValue(object, change.value);
      const rest = pointerSegments(change.pointer).slice(pointerSegments(parent).length);
      let leaf = value;
      if (rest.length > 1 && rest[rest.length - 1] === '$value') { leaf = { $type: 'color', $value: value }; rest.pop(); }
      if (!groups.has(parent)) groups.set(parent, {});
      let node = groups.get(parent);
      for (const key of rest.slice(0, -1)) {
        if (!node[key] || typeof node[key] !== 'object') node[key] = {};
        node = node[key];
      }
      node[rest[rest.length - 1]] = leaf;
    }
    for (const [parent, tree] of groups) {
      for (const [key, inner] of Object.entries(tree)) this.addMember(parent, `${JSON.stringify(key)}: ${inline(inner)}`);
    }
  }

  // Writes `member` ("key": value) into the object at `parent`, after its last member.
  addMember(parent, member) {
    const place = this.parents.get(parent);
    const bytes = this.bytes;
    // The white space after the object's `{` is the indentation of its members.
    let gapEnd = place.start + 1;
    while (gapEnd < place.end && isSpace(bytes[gapEnd])) gapEnd++;
    const gap = decoder.decode(bytes.subarray(place.start + 1, gapEnd));
    const at = place.membersEnd;
    if (at === place.start + 1) {
      this.splice(at, at, member);
    } else {
      const newline = gap.includes('\r\n') ? '\r\n' : '\n';
      const separator = gap.includes('\n') ? `${newline}${gap.split('\n').pop()}` : ' ';
      this.splice(at, at, `,${separator}${member}`);
    }
  }
}
