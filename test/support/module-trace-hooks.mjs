// Resolve hook of module-trace.mjs: records each resolved URL, then resolves as usual.
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.AIYTHON_TEST_MODULE_TRACE) appendFileSync(process.env.AIYTHON_TEST_MODULE_TRACE, `${resolved.url}\n`);
  return resolved;
}
