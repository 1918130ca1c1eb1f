// The release version; test/cli.test.ts checks that it matches package.json.
export const VERSION = "0.1.0";
