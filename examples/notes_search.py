# Index a folder of Markdown notes, then answer a question from the nearest ones, with sources.
# Needs an embedding route and a document_understanding route in aiython.toml, e.g.
#   [capabilities.embedding]
#   model = "openai/text-embedding-3-small"
#   [capabilities.document_understanding]
#   model = "openai/gpt-4.1-mini"
#
#   aiython notes_search.py          (or: npm run demo -- examples/notes_search.py)
question = "How long should green tea steep?"

hits = index the notes folder and find the two notes nearest to the question
context = "\n\n".join(hit["text"] for hit in hits)

answer = answer the question from the context
print(answer)
print("sources:", ", ".join(hit["source"] for hit in hits))
