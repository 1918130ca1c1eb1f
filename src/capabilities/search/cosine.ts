// Exact cosine similarity over an index's vectors (SPEC §10: no approximate search): every stored
// vector is compared with the query, and the best `k` are kept. Vectors are Float32Array as
// stored; a zero vector scores 0.

export interface Scored<T> {
  item: T;
  score: number;
}

export function norm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += vector[i] * vector[i];
  return Math.sqrt(sum);
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>, normA = norm(a)): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dimensions cannot be compared`);
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i] * b[i];
  const normB = norm(b);
  return normA === 0 || normB === 0 ? 0 : dot / (normA * normB);
}

/** The `k` items nearest to `query`, best first; ties keep the items' order. */
export function nearest<T>(query: ArrayLike<number>, items: readonly T[], vectorOf: (item: T) => ArrayLike<number>, k: number): Scored<T>[] {
  const queryNorm = norm(query);
  const scored = items.map((item, index) => ({ item, index, score: cosine(query, vectorOf(item), queryNorm) }));
  scored.sort((x, y) => y.score - x.score || x.index - y.index);
  return scored.slice(0, k).map(({ item, score }) => ({ item, score }));
}
