// The release version; test/cli-usage.test.ts checks that it matches package.json.
export const VERSION = "0.1.0";
