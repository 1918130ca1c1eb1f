// The release version; test/cli-usage.test.ts checks that it matches package.json.
export const VERSION = "0.1.0";

declare const __AIYTHON_BUILD_ID__: string | undefined;

/**
 * What the preparation cache keys entries by besides the source (SPEC §4.1): the version and the
 * build's fingerprint (build.mjs hashes the sources that decide how a program is prepared). Run
 * from source (tsx) there is no fingerprint, and no entry outlives the process that wrote it.
 */
export const CACHE_VERSION = typeof __AIYTHON_BUILD_ID__ === "string" ? `${VERSION}+${__AIYTHON_BUILD_ID__}` : `${VERSION}+source.${process.pid}.${Date.now()}`;
