// The service's public API (described at /openapi.yaml): every request the page makes goes
// through here, to this origin only, so the page works offline and behind a firewall.

export async function api(method, path, { body, accept = 'application/json', type = 'application/json' } = {}) {
  const init = { method, headers: { Accept: accept } };
  if (body !== undefined) {
    init.body = body;
    init.headers['Content-Type'] = type;
  }
  const response = await fetch(path, init);
  return { status: response.status, ok: response.ok, text: await response.text() };
}

export function parseJSON(text) {
  try { return JSON.parse(text); } catch (error) { return null; }
}

export const segment = (name) => encodeURIComponent(name);

// The formats the service reads (GET /v1/formats, from its one registry): which file names
// are sent as text (a stylesheet) rather than JSON. Loaded before anything is read.
let formats = [];

export async function loadFormats() {
  const answer = await api('GET', '/v1/formats');
  formats = (parseJSON(answer.text) || {}).formats || [];
}

function textFormatOf(filename) {
  const name = filename.toLowerCase();
  return formats.find((f) => f.postable && f.mediaTypes.length && !f.mediaTypes.includes('application/json')
    && f.suffixes.some((suffix) => name.endsWith(suffix)));
}

// A stylesheet (by its file name, or pasted text that is not JSON) is sent as CSS.
export function isStylesheet(text, filename) {
  if (filename) return Boolean(textFormatOf(filename));
  return !/^\s*[[{]/.test(text) && /(:root|@theme|--[\w-]+\s*:)/.test(text);
}

// A file's name without the suffix its format names it by (tokens.json → tokens), as the CLI
// names a palette after its file.
export function baseName(filename) {
  const name = filename.toLowerCase();
  const suffixes = formats.flatMap((f) => f.suffixes).sort((a, b) => b.length - a.length);
  const suffix = suffixes.find((s) => name.endsWith(s) && name.length > s.length);
  return suffix ? filename.slice(0, filename.length - suffix.length) : filename;
}
