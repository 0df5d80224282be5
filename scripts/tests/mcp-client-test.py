#!/usr/bin/env python3
"""`ipdata mcp` through a client nobody here wrote: the official MCP Python SDK (PyPI `mcp`).

Usage: mcp-client-test.py IPDATA_BINARY, with the local test server's environment sourced
(TestServer/start, then `. $IPDATA_TEST_SERVER_DIR/env`) and its CA trusted (TestServer/with-test-ca).

Each session runs the binary behind `tee`, so that the test reads the whole transcript: what the
client sent, what the server answered, and the server's standard error. It checks the lifecycle
and the tool list with schemas; each tool's structured result against its outputSchema
(jsonschema, which the SDK uses too); per-entry errors; the budget refusal, and that the disk
cache makes a repeated question free; cancellation of a slow call; and that the key appears in
none of the transcripts.
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import anyio
import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BINARY = sys.argv[1]
BASE_URL = os.environ["IPDATA_TEST_URL_NORMAL"]
KEY = os.environ.get("IPDATA_TEST_KEY", "test-key")
WORK = Path(tempfile.mkdtemp(prefix="ipdata-mcp-test-"))
TRANSCRIPTS = []
FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


def quoted(text):
    return "'" + text.replace("'", "'\\''") + "'"


def server(name, *arguments, base_url=BASE_URL, cache=None):
    """The parameters of a session named `name`: the binary behind tee, its transcript in WORK."""
    files = {part: WORK / f"{name}.{part}" for part in ("in", "out", "err")}
    TRANSCRIPTS.extend(files.values())
    command = " ".join(quoted(part) for part in [BINARY, "mcp", "--base-url", base_url, *arguments])
    pipeline = f"tee {quoted(str(files['in']))} | {command} 2>{quoted(str(files['err']))} | tee {quoted(str(files['out']))}"
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(WORK),
        "XDG_CONFIG_HOME": str(WORK / "config"),
        "IPDATA_CACHE_DIR": str(cache or WORK / f"cache-{name}"),
        "IPDATA_API_KEY": KEY,
    }
    for variable in ("SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE"):
        if variable in os.environ:
            environment[variable] = os.environ[variable]
    return StdioServerParameters(command="bash", args=["-c", pipeline], env=environment), files


def messages(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def main_session():
    parameters, files = server("main")
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            check(initialized.server_info.name == "ipdata", "initialize names the server")
            check(initialized.protocol_version in ("2025-11-25", "2025-06-18"), f"protocol version {initialized.protocol_version}")
            listed = await session.list_tools()
            tools = {tool.name: tool for tool in listed.tools}
            check(
                sorted(tools) == sorted(["lookup", "bulk_lookup", "asn", "extract_addresses", "summarize", "estimate"]),
                f"the six tools are listed: {sorted(tools)}",
            )
            for tool in tools.values():
                jsonschema.Draft202012Validator.check_schema(tool.input_schema)
                jsonschema.Draft202012Validator.check_schema(tool.output_schema)
                check(tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object",
                      f"{tool.name} has object input and output schemas")

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                if not result.is_error:
                    jsonschema.validate(result.structured_content, tools[name].output_schema)
                    text = result.content[0].text
                    check(bool(text), f"{name}: a text block besides the structured result")
                return result

            lookup = await call("lookup", {"ip": "8.8.8.8"})
            check(not lookup.is_error and lookup.structured_content["result"]["ip"] == "8.8.8.8", "lookup 8.8.8.8")
            addresses = ["8.8.8.8", "not-an-address", "10.0.0.1", "2001:4860:4860::8888", "1.1.1.1", "8.8.8.8"]
            bulk = await call("bulk_lookup", {"addresses": addresses})
            entries = bulk.structured_content["results"]
            check([entry["ip"] for entry in entries] == addresses, "bulk_lookup: one entry per address, in input order")
            check(["error" in entry for entry in entries] == [False, True, True, False, False, False],
                  "bulk_lookup: per-entry errors for the bad entry and the private one, results for the rest")
            check("private" in entries[2]["error"], "the private address's error says why")
            asn = await call("asn", {"asn": "AS15169"})
            check(not asn.is_error and asn.structured_content.get("asn") == "AS15169", f"asn AS15169: {asn.content[0].text[:80]}")
            log = "Dec  1 sshd[1]: Failed password from 185.220.101.4 port 22\r\nGET / from [2a01:4f8::1]:443 Chrome/119.0.0.0 10.1.1.1\n"
            extracted = await call("extract_addresses", {"text": log * 500, "unique": True})
            check(extracted.structured_content["addresses"] == ["185.220.101.4", "2a01:4f8::1", "10.1.1.1"],
                  f"extract_addresses: {extracted.structured_content['addresses']}")
            summary = await call("summarize", {"addresses": addresses, "top": 3})
            check(summary.structured_content["summary"]["total"] == len(addresses), "summarize counts every address")
            estimate = await call("estimate", {"addresses": ["8.8.8.8", "9.9.9.9", "10.0.0.1", "9.9.9.9"]})
            figures = estimate.structured_content
            check((figures["distinct"], figures["answered_locally"], figures["cached"], figures["to_send"]) == (3, 1, 1, 1),
                  f"estimate: the cache and local answers count nothing: {figures['text']}")
            # The key sent as an address: an error that echoes its input must not show it.
            echoed = await session.call_tool("lookup", {"ip": KEY})
            check(echoed.is_error and "REDACTED" in echoed.content[0].text, f"an echoed key is redacted: {echoed.content[0].text}")
            bad = await session.call_tool("bulk_lookup", {"addresses": ["1.1.1.1"] * 1001})
            check(bad.is_error and "at most 1000" in bad.content[0].text, "more addresses than a call takes: an error result")
            await session.send_ping()
    sent = messages(files["out"])
    check(all(message.get("jsonrpc") == "2.0" for message in sent), "standard output is JSON-RPC alone")


async def budget_session():
    cache = WORK / "cache-budget"
    parameters, _ = server("budget", "--max-requests", "1", cache=cache)
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            many = [f"8.{i // 200}.{i % 200 + 1}.1" for i in range(150)]
            refused = await session.call_tool("bulk_lookup", {"addresses": many})
            text = refused.content[0].text
            check(refused.is_error and "--max-requests 1" in text and "1 left" in text and "nothing was sent" in text,
                  f"the budget refusal names the budget: {text[:120]}")
            first = await session.call_tool("lookup", {"ip": "8.8.4.4"})
            check(not first.is_error, "a call within the budget goes through")
            again = await session.call_tool("lookup", {"ip": "8.8.4.4"})
            check(not again.is_error, "the same question again is answered from the cache, with the budget spent")
            other = await session.call_tool("lookup", {"ip": "9.9.9.9"})
            check(other.is_error and "0 left" in other.content[0].text, "a new address is refused once the budget is spent")


def access_entries(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()] if path else []


async def cancel_session():
    # HTTP/1.1 only: a request the client cancels closes its connection at once, and nginx logs 499.
    base = os.environ.get("IPDATA_TEST_URL_SLOW_HTTP1", BASE_URL) + "/delay/20"
    access_log = os.environ.get("IPDATA_TEST_ACCESS_LOG")
    seen = len(access_entries(access_log))
    parameters, files = server("cancel", base_url=base)
    started = time.monotonic()
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            with anyio.move_on_after(2) as scope:
                await session.call_tool("bulk_lookup", {"addresses": ["8.8.8.8", "1.1.1.1"]})
            check(scope.cancelled_caught, "the slow call was still running after 2 s")
            pinged = time.monotonic()
            await session.send_ping()
            check(time.monotonic() - pinged < 2, "ping is answered while the cancelled call winds down")
            if access_log:
                # While the session goes on: the cancelled call's request was dropped, not waited for.
                stopped = []
                for _ in range(50):
                    stopped = [entry for entry in access_entries(access_log)[seen:]
                               if entry.get("uri", "").endswith("/bulk") and entry.get("status") == 499]
                    if stopped:
                        break
                    await anyio.sleep(0.1)
                check(bool(stopped) and stopped[0]["request_time"] < 10,
                      "the cancelled call's request was dropped at once (nginx logged 499)")
    check(time.monotonic() - started < 15, "the session ended without waiting for the slow answer")
    sent = messages(files["in"])
    calls = [message["id"] for message in sent if message.get("method") == "tools/call"]
    cancels = [message["params"]["requestId"] for message in sent if message.get("method") == "notifications/cancelled"]
    check(calls and cancels == calls, f"the client sent notifications/cancelled for the call: {cancels}")
    answered = [message.get("id") for message in messages(files["out"])]
    check(not set(calls) & set(answered), "no answer was sent for the cancelled call")


async def main():
    await main_session()
    await budget_session()
    await cancel_session()
    # The main session's client sent the key once, as an address; nothing else may hold it.
    said = [path for path in TRANSCRIPTS if path.name != "main.in"]
    leaks = [str(path) for path in said if path.exists() and KEY in path.read_text()]
    check(not leaks, f"the key appears in no transcript (client, server, standard error): {leaks}")
    check(all(path.exists() for path in TRANSCRIPTS), "every transcript was written")
    if FAILURES:
        print(f"{len(FAILURES)} failed; transcripts in {WORK}")
        sys.exit(1)
    print(f"all passed; transcripts in {WORK}")


anyio.run(main)
