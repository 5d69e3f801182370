import { z } from "zod";

// Every schema of the app is built with this `z`. Zod's JIT probes `new Function` the first time a
// schema is built; under the site's Content Security Policy (no 'unsafe-eval') the browser reports
// that probe as a violation even though zod catches it. Jitless parsing is plenty fast for forms.
z.config({ jitless: true });

export { z };
