// The page's S-SCHEMA worker: loads the schema module (mcp-lanes-schema.js,
// built from src/bin/schema.rs: the core's JSON Schema validator, the code
// `mcp-lanes check` runs) and answers each message, a timeline's JSON, with
// the JSON array of its S-SCHEMA verdicts. Started by the full bundle when a
// live check ends (src/hooks/schema_worker.rs); never by a first visit.
import init, { schema_verdicts } from './mcp-lanes-schema.js';

const ready = init();
self.onmessage = async (event) => {
  try {
    await ready;
    self.postMessage({ verdicts: schema_verdicts(event.data) });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
