// Small DOM helpers shared by the page's modules.

export const byId = (id) => document.getElementById(id);

export function el(tag, attributes = {}, ...children) {
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
export function setStatus(message) {
  const target = byId('workbench').hidden ? byId('page-status') : byId('status');
  target.textContent = message;
}

export function report(error) {
  setStatus(`Something went wrong: ${error.message}. Is the service still running?`);
}

export function plural(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
