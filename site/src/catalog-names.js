// The core's catalog calls whose values fill the page's controls: built into the page by scripts/build-site.mjs
// (read by the core at build time), asked of the core by a build without them (main.js). One list for both.
export const CATALOGS = ['models', 'hardware', 'dtypes', 'conventions', 'version', 'scenarios', 'regions', 'systems', 'options', 'limits', 'runtimes'];
