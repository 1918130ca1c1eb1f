// Finding a model among the ids a server lists (SPEC §7: "searches by word prefixes"): the query
// and each id are cut into words at anything that is not a letter or digit, and an id matches
// when every query word is the start of one of its words — "gpt 4 mini" finds gpt-4.1-mini,
// "llama 8b" finds meta-llama/Llama-3.1-8B-Instruct. Ids whose first word matches come first.
// The picker also offers what was typed, as it is, when it names no listed model: a server's
// /models may not list every model it serves (aliases, a model being pulled, a proxy's routes).

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

export interface ModelChoice {
  name: string;
  value: string;
  description?: string;
}

/** The picker's choices for `term`: the matching ids, then the typed id itself when no id is exactly it. */
export function modelChoices(ids: readonly string[], term: string, shown: (id: string) => string): ModelChoice[] {
  const choices: ModelChoice[] = searchModels(ids, term).map((id) => ({ name: shown(id), value: id }));
  const typed = term.trim();
  if (typed !== "" && !/\s/.test(typed) && !ids.includes(typed)) {
    choices.push({ name: shown(typed), value: typed, description: "as typed: the server does not list it" });
  }
  return choices;
}
