# A statement block: natural language that acts on the live frame (here through `execute`),
# with ordinary Python before and after it.
#
#   aiython examples/statement_block.py
#
# Expected output:
#   ['ana@example.com', 'bo@example.com', 'cy@example.com']
contacts = ["  Ana@Example.com", "bo@example.com ", "ana@example.com", "CY@example.COM"]

normalise every address in contacts to lower case without spaces and drop duplicates, keeping the first of each

print(contacts)
