// SVG charts drawn as elements (so they export as SVG and PNG as drawn), and drawn again in place: every input
// redraws the roofline, the decomposition and the memory bars, and rebuilding them each time cost the page a new
// subtree to create, style and lay out. Every label is text content, never HTML.
export const NS = 'http://www.w3.org/2000/svg';

// The charts' text size, in CSS pixels: a chart is drawn at the width its box has (its view box that many units
// wide), so its text is this size on screen. Drawn once at 560 units and scaled to a 348 px phone column, it read
// at 6.8 px.
export const FONT_PX = 11;
export const FONT = 'system-ui, sans-serif';

// The width of `text` in the charts' font, in CSS pixels (a canvas measures it as the SVG renders it), so labels
// are placed and wrapped by their real width, not by a guess per character.
let measurer = null;
export function textWidth(text, weight = 'normal', size = FONT_PX) {
  measurer ||= document.createElement('canvas').getContext('2d');
  measurer.font = `${weight} ${size}px ${FONT}`;
  return measurer.measureText(String(text)).width;
}

// `text` in lines no wider than `width` (broken at spaces; a word longer than the line stands alone).
export function wrapText(text, width, weight) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, weight) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// `text` cut to `width` with an ellipsis when it is wider.
export function fitText(text, width, weight) {
  const s = String(text);
  if (textWidth(s, weight) <= width) return s;
  let n = s.length;
  while (n > 1 && textWidth(`${s.slice(0, n)}...`, weight) > width) n -= 1;
  return `${s.slice(0, n)}...`;
}

// An element made afresh; attributes that are undefined or null are left out.
export function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// Sets exactly `attrs` on `e`: what changed is set, what is no longer there removed.
function setAttrs(e, attrs) {
  let n = 0;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    n += 1;
    const s = String(v);
    if (e.getAttribute(k) !== s) e.setAttribute(k, s);
  }
  if (e.attributes.length > n) {
    for (const a of [...e.attributes]) {
      const v = attrs[a.name];
      if (v === undefined || v === null) e.removeAttribute(a.name);
    }
  }
}

// The element's own text (its first child when that is text), beside the elements under it (a <title>).
function setText(e, text) {
  const first = e.firstChild;
  const own = first && first.nodeType === Node.TEXT_NODE ? first : null;
  if (text === undefined) {
    if (own) own.remove();
  } else if (own) {
    if (own.data !== text) own.data = text;
  } else {
    e.insertBefore(document.createTextNode(text), first);
  }
}

// Draws an <svg> with `rootAttrs` into `container` through `draw(svg, add)`, reusing what the previous call drew
// there; `draw` may return more attributes of the <svg> (those known only once it is drawn: a view box).
// `add(parent, name, attrs, text)` returns the element at that place: the previous drawing's element at the same
// position under the same parent when it has the same name (only what changed is set), a new one otherwise.
// Elements the previous drawing had past what this one adds are removed, wherever they ended up. The result is the
// same document as building every element afresh (tests/browser/views.test.mjs compares the two).
export function drawSvg(container, rootAttrs, draw) {
  let svg = container.firstChild;
  if (!svg || container.childNodes.length !== 1 || svg.namespaceURI !== NS || svg.localName !== 'svg') {
    container.textContent = '';
    svg = document.createElementNS(NS, 'svg');
    container.appendChild(svg);
  }
  const next = new Map([[svg, 0]]);  // each parent reached: how many of its elements this drawing has placed
  const add = (parent, name, attrs, text) => {
    const i = next.get(parent) ?? 0;
    next.set(parent, i + 1);
    let old = parent.children[i];
    // A drawing that has one element fewer or more here than the last (a label that no longer fits its bar, or
    // now does) keeps the elements after it: one left out is removed, one added goes in before them.
    if (old && old.localName !== name && old.nextElementSibling?.localName === name) {
      const gone = old;
      old = old.nextElementSibling;
      gone.remove();
    }
    let e;
    if (old && old.localName === name) {
      e = old;
      setAttrs(e, attrs);
      setText(e, text);
    } else {
      e = el(name, attrs, text);
      parent.insertBefore(e, old || null);
    }
    if (!next.has(e)) next.set(e, 0);
    return e;
  };
  setAttrs(svg, { ...rootAttrs, ...draw(svg, add) });
  for (const [parent, n] of next) while (parent.children.length > n) parent.lastElementChild.remove();
  return svg;
}
