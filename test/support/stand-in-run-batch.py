"""A stand-in for `vllm run-batch -i REQUESTS -o RESULTS --model M` (SPEC §14's dir: flow).

Reads OpenAI batch input lines and writes OpenAI batch output lines, answering as the loopback
Batch API's label responder does (test/support/batch-project.ts): a block about a ticket first
asks for the ticket, then classifies it; any other block gets a label made from its request.
"""

import argparse
import hashlib
import json


def answer(body, call_id):
    messages = body["messages"]
    if "classify the ticket" in json.dumps(messages):
        seen = [m for m in messages if m["role"] == "tool"]
        if not seen:
            call = {"name": "get_binding", "arguments": json.dumps({"name": "ticket", "result_id": "t"})}
        else:
            kind = "hardware" if "printer" in seen[0]["content"] else "software"
            call = {"name": "finish", "arguments": json.dumps({"outcome": {"kind": "literal", "value": kind}})}
    else:
        digest = hashlib.sha256(messages[1]["content"].encode()).hexdigest()[:10]
        call = {"name": "finish", "arguments": json.dumps({"outcome": {"kind": "literal", "value": "label-" + digest}})}
    message = {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": call}]}
    usage = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
    return {"id": "cmpl", "object": "chat.completion", "model": body["model"], "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}], "usage": usage}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-i", required=True)
    parser.add_argument("-o", required=True)
    parser.add_argument("--model", required=True)
    args = parser.parse_args()
    with open(args.i) as requests, open(args.o, "w") as results:
        for n, line in enumerate(requests):
            if not line.strip():
                continue
            request = json.loads(line)
            response = {"status_code": 200, "request_id": "req-%d" % n, "body": answer(request["body"], "call_%s_%d" % (request["custom_id"], len(request["body"]["messages"])))}
            results.write(json.dumps({"id": "vllm-%d" % n, "custom_id": request["custom_id"], "response": response, "error": None}) + "\n")


main()
