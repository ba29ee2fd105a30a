// Updates that touch the DOM only where something changed. Setting an element's text to the text it already has
// still replaces its text node, and the browser then lays it out and shapes its glyphs again; on every input the
// page sets dozens of texts of which a few change (the numbers), so each is compared first.
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

export function setProp(el, key, value) {
  if (el[key] !== value) el[key] = value;
}
