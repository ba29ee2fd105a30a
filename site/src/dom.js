// Updates that touch the DOM only where something changed. Setting an element's text to the text it already has
// still replaces its text node, and the browser then lays it out and shapes its glyphs again; on every input the
// page sets dozens of texts of which a few change (the numbers), so each is compared first.
export function setText(el, text) {
  const shown = printable(text);
  if (el.textContent !== shown) el.textContent = shown;
}

// Text that may have come from a file (a GGUF's general.name, a config's _name_or_path, a file's name, a message
// quoting them), made printable as the CLI prints it (cli/output.cpp): C0 controls but newline and tab, DEL and C1
// controls each become '?'. A name holding ESC ]0;... BEL showed its control characters raw in the page.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
export function printable(text) {
  return typeof text === 'string' ? text.replace(CONTROLS, '?') : text;
}

export function setProp(el, key, value) {
  const v = key === 'title' ? printable(value) : value;
  if (el[key] !== v) el[key] = v;
}
