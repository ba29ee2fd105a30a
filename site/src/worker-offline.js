// The offline file's worker: a classic script made from a Blob of the single-file core (which defines
// createInfercast) followed by this, so the core runs off the main thread from file:// too.
import { serveCore } from './serve-core.js';

serveCore(self, () => self.createInfercast());
