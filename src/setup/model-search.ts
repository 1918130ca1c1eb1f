// Finding a model among the ids a server lists (SPEC §7: "searches by word prefixes"): the query
// and each id are cut into words at anything that is not a letter or digit, and an id matches
// when every query word is the start of one of its words — "gpt 4 mini" finds gpt-4.1-mini,
// "llama 8b" finds meta-llama/Llama-3.1-8B-Instruct. Ids whose first word matches come first.

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");

export function searchModels(ids: readonly string[], query: string): string[] {
  const wanted = words(query);
  if (wanted.length === 0) return [...ids];
  const scored: { id: string; leading: boolean }[] = [];
  for (const id of ids) {
    const have = words(id);
    if (!wanted.every((w) => have.some((h) => h.startsWith(w)))) continue;
    scored.push({ id, leading: have.length > 0 && have[0].startsWith(wanted[0]) });
  }
  return scored.sort((a, b) => Number(b.leading) - Number(a.leading)).map((s) => s.id);
}
